"""The checks of a game's actions: who may (the host, a seated player, the host for an offline
seat), whether a button is of this moment, whether a phase may start now. Each only reads the
table and raises the :class:`~bot.errors.UserError` the user sees; none changes anything (a
step that is the host's own is marked by :meth:`bot.game.steps.Steps.by_host`)."""

from __future__ import annotations

from bot.errors import UserError
from engine import CompositionError, Phase, RuleViolation
from record.table import Stage, Table

ACTIVE_STAGES = (Stage.NIGHT, Stage.VOTE, Stage.FATE, Stage.CANCEL)


def rule(error: RuleViolation | CompositionError) -> UserError:
    """An engine refusal, as the answer the user sees (``game.rule.<code>``)."""
    return UserError(f"game.rule.{error.code}")


def require_host(table: Table, user_id: int) -> None:
    """Only the table's host may do this."""
    if user_id != table.host_id:
        raise UserError("game.not_host")


def require_seat(table: Table, tg_id: int) -> int:
    """The seat of the player ``tg_id`` at the table (a seat the host plays is the host's)."""
    seat = table.seat_of(tg_id)
    if seat is None:
        raise UserError("game.rule.not_at_table")
    if table.is_offline(seat):
        raise UserError("seats.played_by_host", seat=seat)  # the host presses for it
    return seat


def acting_seat(table: Table, user_id: int, seat: int | None) -> int:
    """Whose press this is: the presser's own seat (``seat`` None), or the offline seat
    named by the button, which only the host may press for (the step is then the host's
    own: its caller marks it, :meth:`bot.game.steps.Steps.by_host`)."""
    if seat is None:
        return require_seat(table, user_id)
    if user_id != table.host_id or not table.is_offline(seat):
        raise UserError("seats.not_yours")
    return seat


def can_start_phase(table: Table, phase: Phase) -> None:
    """``/night`` or ``/vote`` now: dealt, not paused, no phase under way, the phases' order."""
    if table.stage is Stage.LOBBY:
        raise UserError("game.deal.first")
    if table.paused:
        raise UserError("game.paused")
    if table.stage in ACTIVE_STAGES:
        raise UserError("game.busy")
    if table.game.phase is not None and table.game.next_phase() is not phase:
        raise UserError("game.rule.phase_order")


def expect(table: Table, stage: Stage, moment: int) -> None:
    """A button belongs to one moment of a phase: any other is stale; nothing moves while
    paused."""
    if table.stage is not stage or moment != table.moment:
        raise UserError("game.stale")
    if table.paused:
        raise UserError("game.paused")
