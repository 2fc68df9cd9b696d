"""Table.seat_of answers from an index of the seats: it follows a new seating and a seating
filled in place (a restart rebuilds it seat by seat)."""

from __future__ import annotations

from datetime import date

from record.table import SeatInfo, Table


def test_seat_of_follows_the_seats() -> None:
    table = Table(1, -100, 5, date(2026, 12, 1))
    assert table.seat_of(11) is None
    table.seats = {1: SeatInfo(1, 11, "A"), 2: SeatInfo(2, 12, "B")}
    assert (table.seat_of(11), table.seat_of(12), table.seat_of(13)) == (1, 2, None)
    table.seats = {1: SeatInfo(1, 12, "B")}  # 11 left, 12 moved up
    assert (table.seat_of(11), table.seat_of(12)) == (None, 1)
    table.seats[2] = SeatInfo(2, 13, "C")  # filled in place
    assert table.seat_of(13) == 2
    table.seats.clear()
    assert table.seat_of(12) is None
