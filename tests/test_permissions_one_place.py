"""Every permission decision goes through bot/services/permissions.py: no other module of the
product reads the owners' or hosts' settings (``admin_ids``, ``host_ids``) or asks Telegram
whether someone administers a chat (``get_chat_member``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "record", "storage", "views", "web", "bot")
THE_PLACE = Path("bot/services/permissions.py")
DEFINED = Path("bot/config.py")  # where the settings are declared and parsed
FORBIDDEN = {"admin_ids", "host_ids", "get_chat_member", "GetChatMember"}


def _uses(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.arg) and node.arg in FORBIDDEN:
            found.append((node.lineno, node.arg))
        elif isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in FORBIDDEN:
            found.append((getattr(node, "lineno", 0), node.name))
        elif isinstance(node, ast.Constant) and node.value in ("getChatMember",
                                                                 "admin_ids", "host_ids"):
            found.append((node.lineno, str(node.value)))
    return found


def test_no_module_but_permissions_decides_who_may() -> None:
    offenders = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative in (THE_PLACE, DEFINED):
                continue
            uses = _uses(ast.parse(path.read_text(encoding="utf-8")))
            if uses:
                offenders[str(relative)] = uses
    assert offenders == {}


def test_the_check_sees_what_it_forbids() -> None:
    """The test above can fail: each way of reaching the settings or Telegram is caught."""
    for source in ("settings.admin_ids", "x in host_ids", "def f(admin_ids): pass",
                   "await bot.get_chat_member(1, 2)", "from aiogram.methods import GetChatMember",
                   "getattr(settings, 'admin_ids')"):
        assert _uses(ast.parse(source)), source
    assert not _uses(ast.parse("permissions.may(1, Power.HOST)"))


def test_permissions_itself_reads_them() -> None:
    uses = {name for _, name in _uses(ast.parse((ROOT / THE_PLACE).read_text("utf-8")))}
    assert {"admin_ids", "host_ids", "get_chat_member"} <= uses
