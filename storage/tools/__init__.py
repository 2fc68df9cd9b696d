"""The command-line tools behind ``python -m storage``: the spreadsheet import
(:mod:`storage.tools.import_cli`) and the copy of a SQLite file onto PostgreSQL
(:mod:`storage.tools.copy`).

May import: the rest of ``storage``, and ``record`` (a copied game's replay).
"""
