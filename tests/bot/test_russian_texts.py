"""Every Russian text as a club speaks it (docs/bot.md, "How a Russian text is written").

Each message of ``locales/ru`` is rendered with sample arguments for a man, a woman and a player
whose sex is unknown: no bracketed gender forms («должен(на)»), no card's id, and a text that
agrees with a player selects on ``$sex`` with a wording for each. Every message that takes a
player's name (or a gift's, a club's) is in the reviewed list :data:`NAMES`, and renders the
name where it stands in the nominative: after a colon or a dash, after «игрок(а)»/«ник», as the
subject, never after a preposition («у Аня», «для Лёша», «с Даша»).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from engine import Role
from views.i18n import Translator, variables

TRANSLATOR = Translator.load()
RU = TRANSLATOR.catalogs["ru"]
SEXES = ("m", "f", "unknown")
SEX_VARIABLES = ("sex", "spouse_sex")
MARK = "Ёжик"  # a sample nickname: where it lands tells whether it needs a case

# The messages that take a name, and which of their arguments are names: a player's nickname
# (bare or as the code passes it, «№5 Даша»), a list of them, a gift's or a club's name.
# Reviewed: each puts the name in the nominative. A new message with one of NAME_VARIABLES
# goes here or in NOT_NAMES (tests below), so it gets the same check.
NAMES: dict[str, tuple[str, ...]] = {
    "admin.adjust_insufficient": ("nick",), "admin.adjusted": ("nick",),
    "admin.already_blocked": ("nick",), "admin.blocked": ("nick",),
    "admin.complaints_row": ("nick",), "admin.insufficient": ("nick",),
    "admin.not_blocked": ("nick",), "admin.not_found": ("nick",),
    "admin.redeemed": ("nick", "reason"), "admin.redeemed_notice": ("reason",),
    "admin.unblocked": ("nick",),
    "achievement.club.line": ("who",),
    "appeal.closed_kept": ("by",), "appeal.closed_voided": ("by",),
    "appeal.kept_notice": ("by",), "appeal.notice": ("club", "player"),
    "appeal.outcome.kept": ("by",), "appeal.outcome.voided": ("by",),
    "clubs.admin_notice": ("title",), "clubs.already": ("title", "by"),
    "clubs.decided.approved": ("title", "by"), "clubs.decided.pending": ("title",),
    "clubs.decided.refused": ("title", "by"), "clubs.decided.suspended": ("title", "by"),
    "clubs.list.line": ("title",), "clubs.no_player": ("who",),
    "clubs.notice": ("title", "by"), "clubs.set_done": ("name",),
    "club.link.done": ("name", "nick"), "club.link.expired_notice": ("nick",),
    "club.link.no_claim": ("nick",), "club.link.not_found": ("nick",),
    "club.link.notice": ("nick",), "club.lookalikes.group": ("names",),
    "club.nick.claim_admin": ("name", "nick"), "club.nick.claimed": ("nick",),
    "club.nick.claimed_other": ("nick",), "club.start.claim_admin": ("name", "nick"),
    "club.start.claimed": ("nick",),
    "club.settings.head": ("title",), "club.settings.host_added": ("name",),
    "club.settings.host_line": ("name",), "club.settings.remove": ("name",),
    "complain.sent": ("nick",),
    "evening.cancelled": ("club",), "evening.invitation": ("club",),
    "evening.invite.sent": ("invited",), "evening.invite.waiting": ("names",),
    "evening.mine.line": ("club",), "evening.offer.pending": ("names",),
    "evening.post.line": ("name",), "evening.profile.line": ("club",),
    "evening.promoted": ("club",), "evening.remind.day": ("club",),
    "evening.remind.soon": ("club",),
    "expiry.warning": ("nick",),
    "foul.club": ("who",), "foul.done": ("who",), "foul.offer.gone": ("who",),
    "foul.offer.kept": ("who",), "foul.offer.over": ("who",),
    "foul.offer.stale": ("who",), "foul.offer.taken": ("who",),
    "foul.offer.text": ("who",), "foul.offer.undone": ("who",), "foul.undone.club": ("who",),
    "foul.undone.done": ("who",),
    "game.blocked_account.host": ("who",), "game.blocked_bot": ("who",),
    "game.cancel.ask": ("who",), "game.cancel.done": ("who",),
    "game.cancel.done_other": ("who",), "game.cancel.expired": ("who",),
    "game.cancel.window": ("who",), "game.cancel.window_late": ("who",),
    "game.end.points_line": ("who",),
    "game.end.points_line_none": ("who",),
    "game.ev.check_civilian": ("who",), "game.ev.check_mafia": ("who",),
    "game.ev.condemned_died": ("who",), "game.ev.friend_saved": ("who",),
    "game.ev.friend_saved_by": ("by", "who"), "game.ev.immunity_line": ("name",),
    "game.ev.jailed": ("seats",), "game.ev.night_death": ("who",),
    "game.ev.night_deaths": ("seats",), "game.ev.released": ("seats",),
    "game.ev.released_one": ("who",), "game.ev.shootout": ("tied", "who"),
    "game.ev.shootout_drawn": ("who",),
    "game.ev.technical_death": ("who",), "game.ev.verdict_cancelled": ("who",),
    "game.ev.vote_failed": ("tied",), "game.fate.accepted": ("who",),
    "game.fate.ask": ("tied",), "game.fate.bot_drew": ("who",), "game.fate.drawn": ("who",),
    "game.fate.host_draws": ("tied",), "game.friend.accepted": ("who",),
    "game.friend.ask_announce": ("who",), "game.friend.declined": ("who",),
    "game.friend.dropped": ("who",), "game.friend.host_ask": ("holder", "orderer"),
    "game.friend.decided_no": ("who",), "game.friend.decided_yes": ("who",),
    "game.last_word.after": ("who",), "game.last_word.over": ("who",),
    "game.last_word.start": ("who",), "game.last_word.start_late": ("who",),
    "game.lobby.text": ("seats",),
    "game.night.accepted": ("who",), "game.night.chosen": ("who",),
    "game.night.target": ("who",), "game.night.target_chief": ("who",),
    "game.reseat.ok": ("nick",), "game.reseat.unknown": ("nick",), "game.seat": ("name",),
    "game.speak.given": ("by", "who"), "game.speak.given_late": ("by", "who"),
    "game.speak.ok": ("who",), "game.speak.over": ("who",),
    "game.tech.ok": ("who",),
    "game.speak.start": ("who",), "game.speak.start_late": ("who",),
    "game.status.night_host": ("seats",),
    "game.status.voters": ("seats",), "game.vote.accepted": ("who",),
    "game.vote.board_now": ("who",), "game.vote.board_now_late": ("who",),
    "game.vote.board_timeout_none": ("who",),
    "game.vote.board_timeout_self": ("who",), "game.vote.board_voted": ("voter", "who"),
    "game.vote.board_waiting": ("who",), "game.vote.chosen": ("who",),
    "ledger.redeem": ("reason",),
    "nick.lookalike": ("existing", "nick"), "nick.reserved": ("nick",), "nick.same": ("nick",),
    "nick.set": ("nick",), "nick.taken": ("nick",),
    "panel.confirm.tech": ("who",), "panel.confirm.unfoul": ("who",),
    "panel.confirm.unseat": ("who",), "panel.pick.foul_reason": ("who",),
    "panel.pick.giver": ("who",), "panel.pick.place": ("who",),
    "panel.unfoul.line": ("name",),
    "profile.text": ("name", "nick", "spouse"),
    "seats.add.already": ("nick",), "seats.add.blocked": ("nick",), "seats.add.new": ("nick",),
    "seats.add.ok": ("nick",), "seats.add.other_game": ("nick",), "seats.for": ("name",),
    "seats.offline_account": ("nick",), "seats.unseat.ok": ("nick",),
    "seats.add.guest": ("nick",), "seats.ask.already": ("nick",), "seats.ask.sent": ("nick",),
    "seats.ask.lobby_line": ("name",), "seats.ask.host_yes": ("nick",),
    "seats.ask.host_no": ("nick",), "seats.ask.host_failed": ("nick",),
    "seats.ask.host_deal": ("nick",), "seats.ask.host_closed": ("nick",),
    "seats.ask.host_withdrawn": ("nick",), "seats.ask.text": ("club",),
    "shop.admin.added": ("gift",), "shop.admin.ask.name": ("gift",),
    "shop.admin.ask.new_photo": ("gift",), "shop.admin.ask.new_price": ("gift",),
    "shop.admin.ask.new_stock": ("gift",), "shop.admin.ask.photo": ("gift",),
    "shop.admin.ask.price": ("gift",), "shop.admin.ask.stock": ("gift",),
    "shop.admin.button.gift": ("name",), "shop.admin.changed": ("gift",),
    "shop.admin.line": ("name",), "shop.admin.restored": ("gift",),
    "shop.admin.retired": ("gift",), "shop.asked": ("gift",), "shop.asked_popup": ("gift",),
    "shop.button.gift": ("name",), "shop.button.withdraw": ("gift",),
    "shop.cancelled_popup": ("gift",), "shop.card": ("name",),
    "shop.button.club": ("club",), "shop.button.collect": ("club",),
    "shop.closed_notice": ("gift", "player"), "shop.collect_at": ("club",),
    "shop.handed_popup": ("gift",),
    "shop.line_no": ("name",), "shop.line_yes": ("name",), "shop.mine_line": ("gift",),
    "shop.notice": ("gift", "player"), "shop.outcome.cancelled": ("by",),
    "shop.outcome.handed_over": ("by",), "shop.refused.below_reserved": ("gift",),
    "shop.refused.insufficient": ("gift",), "shop.refused.name_taken": ("gift",),
    "shop.refused.out_of_stock": ("gift",), "shop.refused.price_changed": ("gift",),
    "shop.refused.retired": ("gift",), "shop.request_line": ("gift", "player"),
    "shop.take_reserved": ("nick",), "shop.told.burned": ("gift",),
    "shop.told.cancelled": ("gift",), "shop.told.expired": ("gift",),
    "shop.told.handed_over": ("gift",), "shop.withdrawn": ("gift",),
    "staff.club_button": ("name",), "staff.club_head": ("name",),
    "staff.done.granted": ("name",), "staff.done.revoked": ("name",), "staff.line": ("name",),
    "staff.offline": ("nick",), "staff.owner": ("name",), "staff.remove": ("name",),
    "staff.remove_admin": ("name",), "staff.remove_host": ("name",),
    "staff.role.club_admin": ("club",), "staff.role.host": ("club",),
    "staff.same.granted": ("name",), "staff.same.revoked": ("name",),
    "staff.told.granted": ("by",), "staff.told.revoked": ("by",),
    "spouse.declined": ("nick",), "spouse.declined_notice": ("nick",),
    "spouse.divorced": ("nick",), "spouse.divorced_notice": ("nick",),
    "spouse.married": ("nick",), "spouse.proposal": ("nick",), "spouse.sent": ("nick",),
    "start.back": ("name",), "start.new": ("name",),
    "stats.header": ("nick",), "stats.pic.title": ("club",), "stats.top.club": ("club",),
    "stats.top.row": ("nick",), "stats.unknown": ("nick",),
    "standing.top.club": ("club",), "standing.top.row": ("nick",),
    "standing.top.role_row": ("nick",), "standing.rivals.line": ("nick",),
    "tables.add.other": ("nick",), "top.row": ("nick",),
    "void.already": ("by",), "void.notice": ("by", "club"), "void.page": ("by",),
    "season.picture.title": ("club",), "season.post.caption": ("club",),
    "season.row.points": ("nick",), "season.row.rating": ("nick",),
    "season.scope.club": ("club",),
    "web.game.meta": ("club",), "web.player.title": ("nick",),
}
NAME_VARIABLES = frozenset({"who", "nick", "name", "names", "voter", "by", "orderer", "holder",
                            "existing", "tied", "seats", "player", "invited", "gift", "club",
                            "title", "spouse", "reason", "what"})
# Arguments of those names that are not a name: a timer's or a card's label, a reason's words
# (the game's, a foul's, an admin's own text), a list of immunities or of roles, a number.
NOT_NAMES: dict[str, tuple[str, ...]] = {
    "admin.adjusted": ("reason",), "admin.adjusted_notice": ("reason",),
    "admin.blocked_notice": ("reason",), "balance.row": ("reason",),
    "appeal.notice": ("reason",), "appeal.void_reason": ("reason",),
    "club.settings.nudge": ("name",), "club.settings.timer": ("name",),
    "evening.offer.head": ("seats",), "evening.post.head": ("seats",),
    "foul.club": ("reason",), "foul.done": ("reason",), "foul.player": ("reason",),
    "foul.reason.noted": ("reason",), "foul.undone.player": ("reason",),
    "game.deal.size": ("seats",), "game.ev.immunity_line": ("what",),
    "miniapp.player.evening": ("seats",),
    "game.roles.unknown": ("name",), "ledger.adjust": ("reason",), "ledger.game": ("reason",),
    "ops.event.takeover": ("what",), "ops.event.takeover_unknown": ("what",),
    "panel.unfoul.line": ("reason",),
    "stats.row": ("reason",),
    "standing.roles.line": ("name",),  # a card's or a side's name
    # an achievement's own name, and its title made of it
    "achievement.line": ("title",), "achievement.progress": ("name",),
    "achievement.title": ("name",), "achievement.title.level": ("name",),
    "achievement.season_top.told": ("title",),
    "standing.top.role_unknown": ("name",),  # what was typed for a card
    # a season's own name
    "network.season.line": ("name",), "network.season.set": ("name",),
    "network.season.deleted": ("name",), "network.season.delete.started": ("name",),
    "season.fame.head": ("name",), "season.head": ("name",), "season.picture.title": ("name",),
    "season.post.caption": ("name",), "web.season.head": ("name",),
    "void.already": ("reason",), "void.done": ("reason",), "void.notice": ("reason",),
    "void.page": ("reason",),
}

# where a name stands in the nominative: at a line's start (after an emoji or a bullet), after
# a colon, a dash, a bracket, an arrow, a comma or «и» in a list, a rank's «1.», or after a word
# it stands beside as a name («игрока», «ник», «Клуб»), as the subject after its verb
# («получит»), or as a command's argument (<code>/nick Даша</code>)
NOMINATIVE_AFTER = re.compile(
    r"(?:^|\n)(?:<[^>]+>|[^\w\n])*$|[:(—→,«]\s*$|\d\.\s$|<code>/\w+\s$|(?:^|\s)(?:и|игрок|игрока|игроку|игроком|Игрок|"
    r"ник|ником|Ник|Клуб|клуба|Имя|погиб|погибла|получит|получает|выбывает|выходит|"
    r"Голосует|сядет|набрали|уже|теперь)\s$")
PREPOSITIONS = frozenset(("у", "для", "с", "со", "на", "о", "об", "к", "ко", "от", "без", "за",
                          "между", "против", "по", "при", "про", "через", "из", "до", "над",
                          "под", "перед", "в", "во"))
# a past-tense or short-participle masculine form right after a name («Аня удалён»)
MASCULINE_AFTER = re.compile(r"^\s+(?:\w+(?:ал|ял|ел|ёл|ил|ыл|ол|ул)(?:ся)?|\w+(?:ан|ян|ён|ит|ыт)"
                             r"|жив|убит|выбыл|должен)\b")
BRACKETED = re.compile(r"[А-Яа-яЁё]\((?:а|на|ла|лась|ась|ы|у|ей|ая|он|ого|ен|ён|ёл|ий)\)")
CARD_ID = re.compile(r"\b(?:" + "|".join(sorted((r.value for r in Role), key=len, reverse=True))
                     + r")\b")
SNAKE_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
SNAKE_IDS_SHOWN = {"club.import.usage"}  # the import's column names, typed as shown

NUMBERS = {"added", "alive", "available", "balance", "capacity", "clubs", "complaints", "count",
           "current", "day", "days", "draws", "earned", "fouls", "game", "games", "hours", "id",
           "increment", "left", "limit", "line", "linked", "max", "messages", "min", "minutes",
           "missing", "more", "most", "n", "night", "no_shows", "number", "ordinal", "pending",
           "place", "played", "points", "price", "rank", "rate", "refused", "requests", "reserved",
           "seat", "seconds", "session", "signed", "size", "spent", "stock", "survived", "tables",
           "top", "total", "unchanged", "updates", "waiting", "won"}


def _usage(message: ftl.Message) -> tuple[set[str], dict[str, list[str]]]:
    """The variables a message passes to DATE(), and its selectors' variant keys."""
    dates: set[str] = set()
    selectors: dict[str, list[str]] = {}

    class Walk(Visitor):
        def visit_FunctionReference(self, node: ftl.FunctionReference) -> None:
            if node.id.name == "DATE":
                dates.update(a.id.name for a in node.arguments.positional
                             if isinstance(a, ftl.VariableReference))
            self.generic_visit(node)

        def visit_SelectExpression(self, node: ftl.SelectExpression) -> None:
            if isinstance(node.selector, ftl.VariableReference):
                selectors[node.selector.id.name] = [
                    v.key.name if isinstance(v.key, ftl.Identifier) else v.key.value
                    for v in node.variants]
            self.generic_visit(node)

    Walk().visit(message)
    return dates, selectors


def sample(key: str, sex: str, **names: str) -> dict[str, Any]:
    """Arguments for ``key``: dates, numbers, the sex, Cyrillic words for the rest."""
    dates, selectors = _usage(RU.messages[key])
    values: dict[str, Any] = {}
    for name in variables(RU.messages[key]):
        if name in names:
            values[name] = names[name]
        elif name in SEX_VARIABLES:
            values[name] = sex
        elif name in dates:
            values[name] = date(2026, 3, 4)
        elif name in NUMBERS or name in selectors or (
                name == "seats" and name in NOT_NAMES.get(key, ())):  # a count of seats
            values[name] = 5
        else:
            values[name] = "Даша"
    return values


def rendered(key: str, sex: str = "unknown", **names: str) -> str:
    return TRANSLATOR.t("ru", key, **sample(key, sex, **names))


MESSAGES = sorted(k for k, m in RU.messages.items() if m.value is not None)


def test_the_reviewed_list_names_every_message_that_takes_a_name() -> None:
    taking = {(k, v) for k in MESSAGES for v in variables(RU.messages[k]) & NAME_VARIABLES}
    listed = {(k, v) for k, vs in NAMES.items() for v in vs}
    skipped = {(k, v) for k, vs in NOT_NAMES.items() for v in vs}
    assert not listed & skipped
    assert taking - listed - skipped == set(), "a new message takes a name: list it in NAMES"
    assert (listed | skipped) - taking == set(), "listed, but the message has no such argument"


@pytest.mark.parametrize("key", MESSAGES)
def test_every_russian_text_needs_no_bracketed_gender_and_no_card_id(key: str) -> None:
    for sex in SEXES:
        text = rendered(key, sex)
        assert not BRACKETED.search(text), (key, sex, text)
        shown = re.sub(r"<code>.*?</code>|https?://\S+|/[a-z_]+", " ", text, flags=re.S)
        assert not CARD_ID.search(shown), (key, text)
        if key not in SNAKE_IDS_SHOWN:  # (the import's columns: "очки" is a header it reads)
            assert not SNAKE_ID.search(shown), (key, text)
            assert not re.search(r"\b[Оо]чк", text), (key, text)  # the club counts «баллы»


@pytest.mark.parametrize("key", sorted(k for k in MESSAGES
                                       if variables(RU.messages[k]) & set(SEX_VARIABLES)
                                       and k not in ("profile.text", "sex.set")))
def test_a_text_that_agrees_with_a_player_has_a_form_for_each_sex(key: str) -> None:
    he, she, unknown = (rendered(key, sex) for sex in SEXES)
    assert he != she, key  # the verb agrees with the player
    assert unknown not in (he, she), key  # and without the sex it needs no gender


def test_the_profile_names_the_spouse_as_husband_wife_or_neither() -> None:
    lines = {sex: rendered("profile.text", "m", spouse_sex=sex).splitlines()[5]
             for sex in SEXES}
    assert lines == {"m": "Супруг: Даша", "f": "Супруга: Даша", "unknown": "Брак: Даша"}


@pytest.mark.parametrize("key", sorted(NAMES))
def test_a_name_stands_where_russian_keeps_it_in_the_nominative(key: str) -> None:
    for name in NAMES[key]:
        for sex in SEXES:
            text = rendered(key, sex, **{name: MARK})
            assert MARK in text, (key, name, text)
            for found in re.finditer(MARK, text):
                before = text[:found.start()]
                # the template's own «№5 » or markup before the name belongs to it; a name in
                # quotes stands beside its noun undeclined («в клубе «Мафия»», «подарок «…»»)
                before = re.sub(r"(?:<b>|№\d+ )+$", "", before)
                word = re.search(r"(\w+)\s$", before)
                assert not (word and word.group(1).casefold() in PREPOSITIONS), (key, text)
                assert NOMINATIVE_AFTER.search(before), (key, name, before[-30:], text)
                after = text[found.end():]
                if sex != "m":
                    assert not MASCULINE_AFTER.match(after), (key, name, sex, text)


def test_a_host_reads_no_gender_and_no_capital_mid_sentence() -> None:
    """A host of either sex is addressed without «ведущий»/«пришёл»; «стол 2» is a noun with
    its number mid-sentence (a capital only where it names the table alone: «<b>Стол 2</b>»)."""
    assert TRANSLATOR.t("ru", "tables.opened", number=2, game=7) == (
        "Открыт стол 2: игра №7. Ведёте его вы.")
    assert TRANSLATOR.t("ru", "evening.offer.more").endswith(
        "Каждый получит сообщение в личном чате и сядет, когда подтвердит, что на месте; до тех "
        "пор место держим. Остальные садятся кнопкой «Играю».")


def test_a_friend_order_names_its_holder_with_no_verb_to_agree() -> None:
    """«иммунитет получил бы №3 Вера» made a man of every holder: the holder stands after
    «игрока», a spouse is «тот, с кем вы в браке»."""
    who = "№3 Вера"
    assert TRANSLATOR.t("ru", "game.friend.declined", who=who) == (
        "Ведущий отклонил ваш заказ «Давай дружить» для игрока №3 Вера.")
    assert TRANSLATOR.t("ru", "game.friend.dropped", who=who) == (
        "Заказ «Давай дружить» для игрока №3 Вера больше не подходит (изменилась рассадка) и "
        "не учтён.")
    assert TRANSLATOR.t("ru", "game.rule.friend_spouse") == (
        "Нельзя заказать иммунитет для того, с кем вы в браке.")


def test_a_gift_is_handed_over_not_a_request() -> None:
    """A gift is handed over (выдан), a request is closed: «Заявка … не выдана» said neither."""
    assert TRANSLATOR.t("ru", "shop.refused.closed_handed_over", id=4) == (
        "По заявке №4 подарок уже выдан.")
    assert TRANSLATOR.t("ru", "shop.told.expired", id=4, gift="кружка", days=14, points=30) == (
        "Подарок «кружка» по заявке №4 не выдали за 14 дней, заявка закрыта. Снова доступно: "
        "30 баллов. Новая заявка — в /gifts.")
