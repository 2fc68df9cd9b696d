"""Fouls and their fines: the host's whistle (the club's text: speaking in another player's
time or at night "может стоить баллов"; the punishment is the host's:
docs/rules.md#10-fouls-and-fines).

A foul is recorded against a seat, alive or not, at any moment of a game that is not over; its
fine is a ledger row below zero, and undoing it (a foul recorded against the wrong seat) adds
the reversing row, so the ledger only ever grows. How much a fine takes is the caller's: the
club's price, or less where a balance cannot pay it (the bot's decision, docs/rules.md); the
engine records the amount it is given, so a replay gives the same points as the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import RuleViolation
from engine.points import FineReason, LedgerEntry
from engine.state import Foul, FoulReason, GameState, Phase


@dataclass(frozen=True, slots=True)
class FoulResult:
    foul: Foul  # as it stands now (undone for an undoing)
    standing: int  # the seat's fouls in this game that were not undone, this one included
    ledger: tuple[LedgerEntry, ...]  # the fine, or its reversal; none for a warning


def phase_label(state: GameState, during: Phase | None = None) -> str:
    """The phase a foul happens in, as the ledger writes it: ``during`` the night under way
    (or the next one) or the day under way (or the one just voted on); by default the phase
    that follows the last one resolved."""
    phase = during or state.next_phase()
    if phase is Phase.NIGHT:
        number = state.night_number + (0 if state.phase is Phase.NIGHT else 1)
        return f"night {number}"
    return f"day {state.current_day}"


def fine_reason(reason: FoulReason) -> FineReason:
    return FineReason(f"foul_{reason}")


def standing_fouls(state: GameState, seat: int) -> int:
    """The seat's fouls in this game that were not undone."""
    return sum(1 for f in state.fouls if f.seat == seat and not f.undone)


def foul(state: GameState, seat: int, *, reason: FoulReason = FoulReason.OTHER,
         points: int = 0, during: Phase | None = None) -> tuple[GameState, FoulResult]:
    """A foul against ``seat`` with a fine of ``points`` (0: a warning)."""
    if state.over:
        raise RuleViolation("game_over", "the game is over")
    if seat not in state.players:
        raise RuleViolation("not_at_table", "is not at the table", seat)
    if points < 0:
        raise RuleViolation("bad_fine", f"a fine is 0 points or more, not {points}", seat)
    recorded = Foul(len(state.fouls) + 1, seat, reason, points, phase_label(state, during))
    ledger = (LedgerEntry(seat, -points, fine_reason(reason), recorded.phase),) if points else ()
    new_state = replace(state, fouls=(*state.fouls, recorded), ledger=state.ledger + ledger)
    return new_state, FoulResult(recorded, standing_fouls(new_state, seat), ledger)


def undo_foul(state: GameState, number: int) -> tuple[GameState, FoulResult]:
    """The foul ``number`` (1, 2, ... in the game) was recorded against the wrong seat: it no
    longer counts, and its fine comes back as a reversing row of the foul's phase."""
    if state.over:
        raise RuleViolation("game_over", "the game is over")
    if not 1 <= number <= len(state.fouls):
        raise RuleViolation("foul_unknown", f"there is no foul number {number}")
    found = state.fouls[number - 1]
    if found.undone:
        raise RuleViolation("foul_undone", f"had foul {number} undone already", found.seat)
    undone = found._replace(undone=True)
    fouls = (*state.fouls[:number - 1], undone, *state.fouls[number:])
    ledger = ((LedgerEntry(found.seat, found.points, FineReason.FOUL_UNDONE, found.phase),)
              if found.points else ())
    new_state = replace(state, fouls=fouls, ledger=state.ledger + ledger)
    return new_state, FoulResult(undone, standing_fouls(new_state, found.seat), ledger)
