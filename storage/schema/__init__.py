"""The schema's versioned migrations: one SQL file per version and backend
(``sqlite/NNNN_slug.sql``, ``postgres/NNNN_slug.sql``, read by :mod:`storage.schema.scripts`),
applied in order when a backend opens its database by its runner (:mod:`storage.schema.sqlite`,
:mod:`storage.schema.postgres`).

May import: ``storage.sql``.
"""
