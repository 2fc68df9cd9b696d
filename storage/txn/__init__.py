"""The transaction runners over a backend. SQLite's one writer: serialized, group-committed
write transactions (:mod:`storage.txn.transactions`), the queue that batches ``db.write()``s
(:mod:`storage.txn.write_batch`, :mod:`storage.txn.commit_group`), the writer's two-lane lock
(:mod:`storage.txn.writer_lock`), snapshot reads apart from the writer
(:mod:`storage.txn.reads`) and the batching task behind the delivery's marks
(:mod:`storage.txn.batcher`). PostgreSQL's pool: transactions side by side
(:mod:`storage.txn.pool`). Start with ``transactions.py``.

May import: ``storage.backends``, ``storage.sql``, ``storage.errors``.
"""
