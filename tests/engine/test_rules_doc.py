"""docs/rules.md stays true: its composition table is the code's, every test it names exists."""

from __future__ import annotations

import re
from collections import Counter

from engine import default_composition
from tests.engine.conftest import HERE

ROOT = HERE.parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text("utf-8")


def test_composition_table_matches_code() -> None:
    rows = re.findall(r"^\| (\d+) \| (\d+) \| ([^|]+) \| ([^|]+) \|$", DOC, re.MULTILINE)
    assert [int(r[0]) for r in rows] == list(range(6, 25))
    for n, mafia, mafia_cards, civilians in rows:
        cards = default_composition(int(n))
        counted: Counter[str] = Counter()
        for item in mafia_cards.split(", "):
            name, _, times = item.strip().partition(" ×")
            counted[name] += int(times or 1)
        counted.update(c.strip() for c in civilians.split(", "))
        assert counted == Counter(str(c) for c in cards), n
        assert int(mafia) == sum(1 for c in cards if c.is_mafia)


def test_every_named_protocol_and_example_exists() -> None:
    for name in set(re.findall(r"protocols/(\w+)", DOC)):
        assert (HERE / "protocols" / f"{name}.json").exists(), name
    for name in set(re.findall(r"examples/(\w+)", DOC)):
        assert (HERE / "scenarios" / f"{name}.json").exists(), name


def test_every_protocol_is_documented() -> None:
    named = set(re.findall(r"protocols/(\w+)", DOC))
    files = {p.stem for p in (HERE / "protocols").glob("*.json")}
    assert files - named == set()


def test_every_named_test_function_exists() -> None:
    # the rules' tests are the engine's; a decision the bot takes is pinned by a test of its own
    sources = "\n".join(p.read_text("utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    for name in set(re.findall(r"\b(test_\w+)\b(?!\.py)", DOC)):
        assert f"def {name}(" in sources, name
