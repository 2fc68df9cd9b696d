"""What people read, the same in the chats and on the web pages.

The texts in a locale (:mod:`views.i18n`, over ``locales/``), the longer answers
(:mod:`views.texts`, :mod:`views.club_texts`), an engine event's words
(:mod:`views.event_text`), the table's picture (:mod:`views.picture`, drawn off the event loop
by :mod:`views.drawing`), the statistics read model (:mod:`views.stats`), the players'
achievements in words (:mod:`views.achievements`) and a player's cards and rivals
(:mod:`views.standing`, its charts in :mod:`views.charts`). Start with
``i18n.py``. Nothing here imports aiogram: ``python -m web`` serves the pages without it.

May import: ``engine``, ``record``, ``standing``, ``storage``, ``locales``.
"""
