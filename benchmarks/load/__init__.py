"""The load benchmark's parts; the entry point is ``python -m benchmarks.bench_load``.

``players``: the simulated host and players (:class:`~benchmarks.load.players.Bench`, the
``Table`` each plays at, their random choices). ``figures``: what is computed from the fake
server's request log, the ledger check against the database, and the report's table text.
"""
