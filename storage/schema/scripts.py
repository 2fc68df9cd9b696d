"""The migrations' SQL, one file per version and backend: ``storage/schema/sqlite/*.sql`` and
``storage/schema/postgres/*.sql``, shipped as package data and read with
:mod:`importlib.resources`.

A file is named ``NNNN_slug.sql``, numbered from ``0001`` without a gap (its number is the
schema version it brings the database to); its first line, ``-- name``, names the migration
(PostgreSQL stores it in ``schema_migrations``); the rest is the script.
"""

from __future__ import annotations

from importlib.resources import files


def load(backend: str) -> list[tuple[str, str]]:
    """``backend``'s migrations in order, as ``(name, script)``."""
    folder = files(__package__).joinpath(backend)
    scripts = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")),
                     key=lambda f: f.name)
    migrations: list[tuple[str, str]] = []
    for number, script in enumerate(scripts, 1):
        if not script.name.startswith(f"{number:04d}_"):
            raise RuntimeError(f"{backend} migration {script.name} is out of sequence"
                               f" ({number:04d}_*.sql expected)")
        first, _, body = script.read_text(encoding="utf-8").partition("\n")
        if not first.startswith("-- ") or not body.strip():
            raise RuntimeError(f"{backend} migration {script.name} must begin with a"
                               " '-- name' line and hold a script")
        migrations.append((first[3:].strip(), body))
    return migrations
