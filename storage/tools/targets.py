"""The PostgreSQL database of ``python -m storage import`` and ``copy``: ``DATABASE_URL`` from
the environment, as the bot reads it. A command line is visible to every user of the machine
(``ps``, ``/proc``), so a URL given there with its password is refused; one without a password
is taken (the password then comes from ``PGPASSWORD`` or ``~/.pgpass``, as libpq's tools read
them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

from storage.backends.postgres import describe

ENV = "DATABASE_URL"


class TargetError(Exception):
    """One line for stderr, exit status 2."""


def has_password(url: str) -> bool:
    parts = urlsplit(url)
    return parts.password is not None or "password" in parse_qs(parts.query)


def given(url: str) -> str:
    """A URL named on the command line: refused when it holds a password."""
    if has_password(url):
        raise TargetError(
            f"{describe(url)}: a password on the command line is visible to every user of this"
            f" machine; set {ENV}=postgresql://... in the environment and leave the URL out of"
            " the command (or give the password by PGPASSWORD)")
    return url


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL``, or :class:`TargetError` when it is not set."""
    url = (os.environ if environ is None else environ).get(ENV, "").strip()
    if not url:
        raise TargetError(f"no PostgreSQL database: set {ENV}=postgresql://... in the"
                          " environment")
    return url
