"""The schema's versioned migrations, one module per backend (:mod:`storage.schema.sqlite`,
:mod:`storage.schema.postgres`), applied in order when a backend opens its database.

May import: ``storage.sql``.
"""
