"""The rules the code and the docs cite are the project's own, docs/rules.md: a section is
cited by its anchor (``docs/rules.md#...``, not "section N"), every anchor cited names one of
its sections, and nothing cites a rules file the repository does not hold."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SKIPPED = {"build", "data", "node_modules", "__pycache__"}  # (and every hidden folder)
ELSEWHERE = "RULES" + ".md"  # the upper-case name of a rules file kept outside the project


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def sections() -> dict[str, str]:
    """docs/rules.md's headings by anchor."""
    headings = re.findall(r"^#{2,6} (.+)$", RULES.read_text(encoding="utf-8"), re.MULTILINE)
    anchors = {anchor(h): h for h in headings}
    assert len(anchors) == len(headings), "two headings of docs/rules.md share an anchor"
    return anchors


def texts() -> Iterator[tuple[Path, str]]:
    """Every text file of the repository (not the virtualenv, builds, or data)."""
    def walk(folder: Path) -> Iterator[Path]:
        for path in sorted(folder.iterdir()):
            if path.is_dir():
                if not path.name.startswith(".") and path.name not in SKIPPED \
                        and not path.name.endswith(".egg-info"):
                    yield from walk(path)
            elif path.is_file():
                yield path

    for path in walk(ROOT):
        try:
            yield path, path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text (a database, a picture)


def test_nothing_cites_a_rules_file_outside_the_repository() -> None:
    citing = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
              for path, text in texts() for m in re.finditer(re.escape(ELSEWHERE), text)]
    assert citing == []


def test_every_cited_section_of_the_rules_exists() -> None:
    known = sections()
    cited: dict[str, list[str]] = {}
    by_number = []
    for path, text in texts():
        where = str(path.relative_to(ROOT))
        for m in re.finditer(r"rules\.md#([\w\-]+)", text):
            cited.setdefault(m.group(1), []).append(where)
        if re.search(r"rules\.md,? (section|§) ?\d", text):
            by_number.append(where)
    assert cited, "nothing cites a section of docs/rules.md"
    assert {a: w for a, w in cited.items() if a not in known} == {}
    assert by_number == []  # cite a section by its anchor, which this test checks


def test_the_protocols_pin_sections_that_exist() -> None:
    """A protocol's ``rule`` begins with the sections it pins (``3.4/5.2 ...``) or a decision
    (``D7 ...``): each is a numbered heading, or a decision's number, of docs/rules.md."""
    numbers = {m.group(1) for h in sections().values()
               if (m := re.match(r"(\d+(?:\.\d+)?)\.? ", h))}
    decisions = set(re.findall(r"\((D\d+)\)", RULES.read_text(encoding="utf-8")))
    unknown = []
    protocols = sorted((ROOT / "tests" / "engine" / "protocols").glob("*.json"))
    for path in protocols:
        first = json.loads(path.read_text(encoding="utf-8"))["rule"].split()[0]
        if re.fullmatch(r"[\d.]+(/[\d.]+)*", first):
            unknown += [f"{path.stem}: {n}" for n in first.split("/") if n not in numbers]
        elif re.fullmatch(r"D\d+", first) and first not in decisions:
            unknown.append(f"{path.stem}: {first}")
    assert protocols
    assert unknown == []
