"""The host's Mini App: the live table on the host's phone, served by the bot's process
(:mod:`bot.miniapp.server`), each request's Telegram ``initData`` checked
(:mod:`bot.miniapp.auth`). Its page and script are in ``web/templates`` and ``web/static``.

May import: ``bot.cluster``, ``bot.game``, the base modules of ``bot``, ``web`` and the layers
below ``bot``.
"""
