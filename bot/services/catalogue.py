"""The admins' catalogue of gifts: the commands (``/gift_add``, ``/gift_edit``, ``/gift_photo``,
``/gift_retire``, ``/gift_restore``) and the ``/shop`` dialog, whose typed values (a name, a
price, a stock, a photo) wait in a draft in storage, so the next message is understood
whichever process handles it and after a restart."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import timedelta

from bot.clock import Clock, utc_now
from bot.errors import UserError
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import GiftRefused, InvalidValue
from storage.models import Gift
from storage.numbers import read_number
from storage.shop.gifts import NAME_MAX, PRICE_MAX, STOCK_MAX

DRAFT_TTL = timedelta(hours=1)  # a dialog left this long waits for nothing any more
# /gift_edit's fields, in both languages
FIELDS = {"price": "price", "цена": "price", "stock": "stock", "остаток": "stock",
          "склад": "stock", "name": "name", "название": "name", "имя": "name"}
OFF = ("off", "none", "-", "нет", "удалить")


@dataclass(frozen=True)
class DialogTurn:
    """The dialog's turn after a typed value: it asks for ``field`` next (of the new gift
    named ``name``), or shows ``gift``, done."""

    gift: Gift | None = None
    field: str | None = None
    name: str | None = None


class Catalogue:
    def __init__(self, db: Database, permissions: Permissions, *,
                 clock: Clock = utc_now) -> None:
        self.db = db
        self.permissions = permissions
        self.clock = clock

    async def require(self, admin_id: int) -> None:
        """Every method checks its caller itself (the handlers' router checks too): the
        catalogue prices the points."""
        await self.permissions.require(admin_id, Power.MOVE_POINTS)

    async def is_admin(self, admin_id: int) -> bool:
        return await self.permissions.may(admin_id, Power.MOVE_POINTS)

    async def gifts(self, admin_id: int) -> tuple[list[Gift], int]:
        """Every gift (retired too) and how many requests are open."""
        await self.require(admin_id)
        return await self.db.gifts.catalogue(), await self.db.gift_requests.count_open()

    async def gift(self, admin_id: int, gift_id: int) -> Gift:
        await self.require(admin_id)
        gift = await self.db.gifts.get(gift_id)
        if gift is None:
            raise UserError("shop.refused.unknown_gift")
        return gift

    # ------------------------------------------------------------------ the commands
    async def add(self, admin_id: int, args: str) -> Gift:
        """``/gift_add PRICE STOCK NAME``."""
        await self.require(admin_id)
        words = args.split(maxsplit=2)
        price, stock = (read_number(w) for w in [*words[:2], "", ""][:2])
        if len(words) < 3 or price is None or stock is None:
            raise UserError("shop.admin.add_usage")
        return await self._write(self.db.gifts.add(words[2], price, stock,
                                                   admin_id=admin_id, now=self.clock()))

    async def edit(self, admin_id: int, args: str) -> Gift:
        """``/gift_edit ID price|stock|name VALUE``."""
        await self.require(admin_id)
        words = args.split(maxsplit=2)
        gift_id = read_number(words[0]) if words else None
        if len(words) < 3 or gift_id is None or words[1].lower() not in FIELDS:
            raise UserError("shop.admin.edit_usage")
        return await self._set(admin_id, gift_id, FIELDS[words[1].lower()], words[2])

    async def photo(self, admin_id: int, args: str, file_id: str | None) -> Gift:
        """``/gift_photo ID`` as a photo's caption or a reply to a photo; ``/gift_photo ID off``
        takes the photo away."""
        await self.require(admin_id)
        words = args.split()
        gift_id = read_number(words[0]) if words else None
        if gift_id is None or len(words) > 2:
            raise UserError("shop.admin.photo_usage")
        if len(words) == 2:
            if words[1].lower() not in OFF:
                raise UserError("shop.admin.photo_usage")
            file_id = None
        elif file_id is None:
            raise UserError("shop.admin.photo_usage")
        return await self._write(self.db.gifts.edit(gift_id, admin_id=admin_id,
                                                    now=self.clock(), photo=file_id))

    async def set_active(self, admin_id: int, args: str, active: bool) -> Gift:
        """``/gift_retire ID`` (off sale: its open requests stay open) or ``/gift_restore ID``."""
        await self.require(admin_id)
        gift_id = read_number(args.strip().lstrip("#"))
        if gift_id is None:
            raise UserError("shop.admin.retire_usage" if not active
                            else "shop.admin.restore_usage")
        return await self.toggle(admin_id, gift_id, active)

    async def toggle(self, admin_id: int, gift_id: int, active: bool) -> Gift:
        await self.require(admin_id)
        return await self._write(self.db.gifts.edit(gift_id, admin_id=admin_id,
                                                    now=self.clock(), active=active))

    # ------------------------------------------------------------------ the dialog
    async def ask_for(self, admin_id: int, field: str, gift_id: int | None) -> Gift | None:
        """The dialog waits for ``field`` of gift ``gift_id`` (None: a new gift's name)."""
        await self.require(admin_id)
        gift = None if gift_id is None else await self.gift(admin_id, gift_id)
        await self.db.gifts.set_draft(admin_id, field, gift_id=gift_id, now=self.clock())
        return gift

    async def waiting(self, admin_id: int) -> bool:
        """Whether the admin's dialog waits for a typed value (a fresh draft)."""
        if not await self.is_admin(admin_id):
            return False
        draft = await self.db.gifts.draft(admin_id)
        return draft is not None and self.clock() - draft.at < DRAFT_TTL

    async def stop(self, admin_id: int) -> bool:
        await self.require(admin_id)
        return await self.db.gifts.drop_draft(admin_id)

    async def skip_photo(self, admin_id: int, gift_id: int) -> Gift:
        """"No photo" for the new gift ``gift_id``: refused (stale) unless the dialog still
        waits for that gift's photo, so an old prompt's press never drops a later question."""
        await self.require(admin_id)
        draft = await self.db.gifts.draft(admin_id)
        if draft is None or (draft.field, draft.gift_id) != ("photo", gift_id):
            raise UserError("shop.refused.stale")
        await self.db.gifts.drop_draft(admin_id)
        return await self.gift(admin_id, gift_id)

    async def typed(self, admin_id: int, text: str | None, photo: str | None) -> DialogTurn:
        """The admin's message for the draft: a value (the draft goes on or is done) or a
        refusal that leaves the draft waiting."""
        await self.require(admin_id)
        draft = await self.db.gifts.draft(admin_id)
        if draft is None or self.clock() - draft.at >= DRAFT_TTL:
            raise UserError("shop.admin.nothing_asked")
        now = self.clock()
        if draft.field == "photo":
            if photo is None:
                raise UserError("shop.admin.want_photo")
            assert draft.gift_id is not None
            gift = await self._write(self.db.gifts.edit(draft.gift_id, admin_id=admin_id,
                                                        now=now, photo=photo))
            await self.db.gifts.drop_draft(admin_id)
            return DialogTurn(gift=gift)
        if text is None:
            raise UserError("shop.admin.want_text")
        if draft.gift_id is not None:  # one field of a gift
            gift = await self._set(admin_id, draft.gift_id, draft.field, text)
            await self.db.gifts.drop_draft(admin_id)
            return DialogTurn(gift=gift)
        # a new gift: its name, its price, then its stock (and it is made)
        if draft.field == "name":
            name = _name(text)
            await self.db.gifts.set_draft(admin_id, "price", name=name, now=now)
            return DialogTurn(field="price", name=name)
        if draft.field == "price":
            price = _number(text, "price", PRICE_MAX, low=1)
            await self.db.gifts.set_draft(admin_id, "stock", name=draft.name, price=price,
                                          now=now)
            return DialogTurn(field="stock", name=draft.name)
        stock = _number(text, "stock", STOCK_MAX, low=0)
        assert draft.name is not None and draft.price is not None
        gift = await self._write(self.db.gifts.add(draft.name, draft.price, stock,
                                                   admin_id=admin_id, now=now))
        # then its photo, which the admin may skip
        await self.db.gifts.set_draft(admin_id, "photo", gift_id=gift.id, now=now)
        return DialogTurn(gift=gift, field="photo", name=gift.name)

    # ------------------------------------------------------------------ helpers
    async def _set(self, admin_id: int, gift_id: int, field: str, value: str) -> Gift:
        await self.require(admin_id)
        now = self.clock()
        if field == "price":
            edit = self.db.gifts.edit(gift_id, admin_id=admin_id, now=now,
                                      price=_number(value, "price", PRICE_MAX, low=1))
        elif field == "stock":
            edit = self.db.gifts.edit(gift_id, admin_id=admin_id, now=now,
                                      stock=_number(value, "stock", STOCK_MAX, low=0))
        else:
            edit = self.db.gifts.edit(gift_id, admin_id=admin_id, now=now, name=_name(value))
        return await self._write(edit)

    async def _write(self, write: Awaitable[Gift]) -> Gift:
        """A catalogue write, its refusals in the admins' words."""
        try:
            return await write
        except InvalidValue as e:
            raise UserError(f"shop.admin.bad_{e.field}", max=_MAX.get(e.field, 0)) from e
        except GiftRefused as e:
            gift_id = e.gift.id if e.gift is not None else 0
            name = e.gift.name if e.gift is not None else ""
            raise UserError(f"shop.refused.{e.reason}", id=gift_id, gift=name,
                            reserved=e.available) from e


_MAX = {"name": NAME_MAX, "price": PRICE_MAX, "stock": STOCK_MAX}


def _number(text: str, field: str, high: int, *, low: int) -> int:
    value = read_number(text.strip().replace(" ", ""))
    if value is None or not low <= value <= high:
        raise UserError(f"shop.admin.bad_{field}", max=high)
    return value


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name or len(name) > NAME_MAX:
        raise UserError("shop.admin.bad_name", max=NAME_MAX)
    return name
