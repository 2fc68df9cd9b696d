"""What people read, the same in the chats and on the web pages.

The texts in a locale (:mod:`views.i18n`, over ``locales/``), the longer answers
(:mod:`views.texts`, :mod:`views.club_texts`), an engine event's words
(:mod:`views.event_text`), the table's picture (:mod:`views.picture`, drawn off the event loop
by :mod:`views.drawing`), the statistics read model (:mod:`views.stats`) and the players'
achievements in words (:mod:`views.achievements`). Start with
``i18n.py``. Nothing here imports aiogram: ``python -m web`` serves the pages without it.

May import: ``engine``, ``record``, ``storage``, ``locales``.
"""
