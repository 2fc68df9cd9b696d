"""The club's table as a file: ``.xlsx`` or CSV read into text cells and written back
(:mod:`storage.spreadsheets.files`), its columns and each row checked on its own
(:mod:`storage.spreadsheets.columns`). ``/import`` reads these files and ``/export`` writes them.

May import: the value modules of storage (``storage.models``, ``storage.errors``,
``storage.nickname``).
"""
