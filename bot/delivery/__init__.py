"""Every message the bot sends: the rate-limited sender (:mod:`bot.delivery.sender`, within
Telegram's limits by :mod:`bot.delivery.rate_limit`) and the worker that sends the durable
outbox's rows in order per chat (:mod:`bot.delivery.worker`; what a row asks for, typed, and
its codec: :mod:`bot.delivery.payload`; a row to the Telegram call that delivers it, built
when its turn comes: :mod:`bot.delivery.calls`), merging a club chat's queued
posts when it is behind Telegram's budget (:mod:`bot.delivery.merge`) and saying a timed text
in its words for once its moment is over when it goes out late (:mod:`bot.delivery.late`), and
the handlers' answers queued there (:mod:`bot.delivery.replies`). Start with ``worker.py``;
docs/delivery.md says what is guaranteed.

May import: the layers below ``bot`` only (``views``, ``storage``, ``record``, ``engine``).
"""
