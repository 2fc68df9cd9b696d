"""The Mini Apps the bot's process serves, each request's Telegram ``initData`` checked
(:mod:`bot.miniapp.auth`): the host's live table (:mod:`bot.miniapp.server`) and the player's
own record, gift shop and evenings (:mod:`bot.miniapp.player`, its reads in
:mod:`bot.miniapp.player_view`, the gifts' photos in :mod:`bot.miniapp.photos`). Their pages
and scripts are in ``web/templates`` and ``web/static``.

May import: ``bot.cluster``, ``bot.evenings``, ``bot.game``, ``bot.services``, the base
modules of ``bot``, ``web`` and the layers below ``bot``.
"""
