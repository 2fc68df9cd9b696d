"""The load benchmark's "lost" (benchmarks/load/figures.py, ``lost``): a send or edit the fake
refused counts as delivered only when a later request really carried it: the same text sent
again or merged into a later post, the same post with its own edits folded in (the chat's next
send, under the same heading), or a later edit of the same message. Nothing else is excused."""

from __future__ import annotations

from typing import Any

from benchmarks.load.figures import lost, read_log, write_log
from tests.fakes.telegram_server import Request

CLUB, OTHER = -1000173, -1000174
BOARD = "🗳 <b>Vote, day 2.</b> Each turn is 2 seconds.\n"


def send(at: float, text: str, status: int = 200, chat: int = CLUB) -> Request:
    return Request(at, "sendMessage", chat, status, {"chat_id": chat, "text": text})


def edit(at: float, message_id: int, text: str, status: int = 200,
         chat: int = CLUB) -> Request:
    return Request(at, "editMessageText", chat, status,
                   {"chat_id": chat, "message_id": message_id, "text": text})


def photo(at: float, caption: str, status: int = 200, chat: int = CLUB) -> Request:
    params: dict[str, Any] = {"chat_id": chat, "photo": ("day.jpg", b"..."), "caption": caption}
    return Request(at, "sendPhoto", chat, status, params)


def test_a_send_sent_again_with_the_same_text_is_delivered() -> None:
    assert lost([send(1, "Night 2 falls.", 429), send(3, "Night 2 falls.")]) == []


def test_a_send_merged_into_a_later_post_is_delivered() -> None:
    assert lost([send(1, "Night 2 falls.", 429),
                  send(20, "Night 2 falls.\n\nMorning: nobody died.")]) == []


def test_a_board_sent_later_with_its_newer_votes_folded_in_is_delivered() -> None:
    refused = send(1, BOARD + "⏳ A votes now", 429)
    assert lost([refused, edit(5, 7, "the tally"), send(20, BOARD + "A → B\n⏳ C votes now")]) == []


def test_a_send_never_carried_is_lost() -> None:
    refused = send(1, BOARD + "⏳ A votes now", 429)
    assert lost([refused]) == [refused]
    assert lost([refused, send(5, "Night 3 falls.")]) == [refused]


def test_the_same_heading_excuses_only_the_chats_next_send() -> None:
    refused = send(1, BOARD + "⏳ A votes now", 429)
    # another post went out first: the refused row did not keep its place, so it was not retried
    assert lost([refused, send(5, "Night 3 falls."), send(9, BOARD + "A → B")]) == [refused]
    # the heading in another chat carries nothing of this one
    assert lost([refused, send(5, BOARD + "A → B", chat=OTHER)]) == [refused]
    # a retry that was refused again carries nothing either
    again = send(5, BOARD + "A → B", 429)
    assert lost([refused, again]) == [refused, again]
    # a message refused twice and never sent is one message lost
    assert lost([refused, send(3, BOARD + "⏳ A votes now", 429)]) == [refused]


def test_a_picture_never_sent_again_is_lost() -> None:
    refused = photo(1, "Day 2. Nobody died.", 429)
    assert lost([refused, send(5, "Night 3 falls.")]) == [refused]
    assert lost([refused, photo(5, "Day 2. Nobody died.\nB's last word is over.")]) == []


def test_an_edit_superseded_by_a_later_edit_of_the_same_message_is_delivered() -> None:
    assert lost([edit(1, 7, BOARD + "A → B", 429), edit(8, 7, BOARD + "A → B\nC → A")]) == []


def test_an_edit_never_superseded_is_lost() -> None:
    refused = edit(1, 7, BOARD + "A → B", 429)
    assert lost([refused]) == [refused]
    assert lost([refused, edit(8, 8, "another message")]) == [refused]
    assert lost([refused, edit(8, 7, BOARD, chat=OTHER)]) == [refused]
    assert lost([refused, edit(8, 7, BOARD + "A → B", 429)]) == [refused]
    # a later send, even with the same text, is another message: the edited one stays stale
    assert lost([refused, send(8, BOARD + "A → B")]) == [refused]


def test_an_edit_before_the_refusal_supersedes_nothing() -> None:
    refused = edit(5, 7, BOARD + "A → B", 429)
    assert lost([edit(1, 7, BOARD), refused]) == [refused]


def test_the_log_written_by_the_run_reads_back(tmp_path: Any) -> None:
    log = [photo(1, "Day 2.", 429), send(2, "x"), edit(3, 7, "y", 429)]
    log[0].params["photo"] = ("day.jpg", bytearray(b"..."))  # as aiohttp reads a file
    write_log(log, tmp_path / "requests.jsonl")
    back = read_log(tmp_path / "requests.jsonl")
    assert [(r.at, r.method, r.chat_id, r.status) for r in back] == [
        (r.at, r.method, r.chat_id, r.status) for r in log]
    assert back[0].params["photo"] == "<file day.jpg, 3 bytes>"
    assert lost(back) == [back[0], back[2]]
