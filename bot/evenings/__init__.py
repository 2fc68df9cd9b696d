"""A club's evenings before the lobby: the announcement (``/evening``, or its buttons), the
post with its live list, sign-ups and the waitlist, the reminders, the start and the end (the
no-shows). Start with ``service.py``; docs/game-flow.md, "The evening before the lobby".

Everything an evening says goes through the durable outbox in the transaction of the change
that causes it (``storage/repos/evenings.py``); its timers are APScheduler jobs armed where the
club is held (``bot/game/timers.py``'s deadlines), re-armed from the database at a start or a
takeover, and each one's effect is written once whoever runs it.

May import: ``bot.game`` (its timers and its answers), ``bot.telegram``, ``bot.services``,
``bot.delivery``, the base modules of ``bot`` and the layers below ``bot``.
"""
