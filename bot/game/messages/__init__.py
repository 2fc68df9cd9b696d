"""How a game speaks: the notifier turns engine events and service messages into chat
requests (:mod:`bot.game.messages.notifier`), the senders put them in the durable outbox
(:mod:`bot.game.messages.senders`), and the table's picture goes with the posts that carry it
(:mod:`bot.game.messages.pictures`).

May import: ``bot.delivery``, ``views``, ``record``, ``storage``, ``engine``.
"""
