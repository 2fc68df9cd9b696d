"""The repositories: one class per kind of row (players, ledger, games, clubs, records,
statistics, expiry, outbox, inbox, imports), each running its statements inside the caller's
transaction, and the caches of rows read on every update. ``storage.db.Database`` holds one of
each. Start with ``players.py``; ``_ops.py`` holds the statements several of them share.

May import: ``storage.txn``, ``storage.spreadsheets``, ``storage.sql`` and the value modules
(``storage.models``, ``storage.errors``, ``storage.nickname``, ``storage.lookalike``,
``storage.dates``).
"""
