"""The transaction engines over a backend. SQLite's one writer: serialized, group-committed
write transactions (:mod:`storage.core.transactions`), the queue that batches ``db.write()``s
(:mod:`storage.core.write_batch`, :mod:`storage.core.commit_group`), the writer's two-lane lock
(:mod:`storage.core.writer_lock`), snapshot reads apart from the writer
(:mod:`storage.core.reads`) and the batching task behind the delivery's marks
(:mod:`storage.core.batcher`). PostgreSQL's pool: transactions side by side
(:mod:`storage.core.pool`). Start with ``transactions.py``.

May import: ``storage.backends``, ``storage.sql``, ``storage.errors``.
"""
