"""The command-line tools behind ``python -m storage``: the spreadsheet import
(:mod:`storage.tools.import_cli`), the copy of a SQLite file onto PostgreSQL
(:mod:`storage.tools.copy`), the ratings' rebuild (:mod:`storage.tools.rerate`), and where
their PostgreSQL database comes from (:mod:`storage.tools.targets`: the environment, never a
password on the command line).

May import: the rest of ``storage``, and ``record`` (a copied or rerated game's replay).
"""
