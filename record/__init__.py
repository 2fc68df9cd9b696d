"""A game's record: its append-only event log read back into a table.

:mod:`record.log_events` holds the log's kinds, one frozen class each (``encode`` to the stored kind
and JSON, ``decode`` back from any shape a database holds); :class:`record.table.Table` is the
one reducer of a game's log (``Table.apply``, a ``match`` on those classes): a running
game, a restart, a finished game's page and ``python -m storage copy``'s check all rebuild a
table the same way. :mod:`record.outcome` works a finished game's winner and points out of its
log alone; :mod:`record.protocol` writes the log down as a replay protocol (docs/replay.md).
Start with ``table.py``.

May import: ``engine`` only.
"""
