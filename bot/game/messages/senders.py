"""Where the notifier's requests go: the durable outbox (:class:`QueueSender`, the bot), or, in
the service tests, memory (``tests/fakes/recording_sender.py``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from bot.delivery.worker import Delivery
from storage.repos.outbox import Queued


class Sender(Protocol):
    """Where the notifier's requests go. ``durable``: the requests of a game step are written
    in the step's own transaction (:meth:`bot.game.steps.Steps.flush`), then ``queued`` is
    told; otherwise ``deliver`` takes them after the step's events are logged."""

    durable: bool

    async def deliver(self, messages: Sequence[Queued]) -> None: ...

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None: ...


class QueueSender:
    """The durable outbox: rows in SQLite, sent by the delivery worker
    (``bot/delivery/worker.py``)."""

    durable = True

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery

    async def deliver(self, messages: Sequence[Queued]) -> None:
        await self.delivery.enqueue(list(messages))

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None:
        self.delivery.queued(messages, new)
