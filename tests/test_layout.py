"""The layout shows the design: imports flow one way, each folder says what it holds and what it
may import, no name means two things, and the README and docs/architecture.md match the tree."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "record", "standing", "storage", "views", "web", "bot", "locales")

# The arrows between the top-level packages: each may import the ones listed, nothing else.
ALLOWED = {
    "engine": set(),
    "locales": set(),
    "record": {"engine"},
    "standing": {"engine", "record"},
    "storage": {"engine", "record", "standing"},
    "views": {"engine", "record", "standing", "storage", "locales"},
    "web": {"engine", "record", "standing", "storage", "views", "locales"},
    "bot": {"engine", "record", "standing", "storage", "views", "web", "locales"},
}

# Inside a package, its parts top down: a part imports only the parts after it. A part is a
# sub-folder or a module; the parts not named are the package's base, importable by all.
ORDER = {
    "bot": ["__main__", "app", "wiring", "jobs", "observability", "handlers", "miniapp",
            "cluster", "evenings", "game", "telegram", "services", "delivery"],
    "bot.game": ["service", "restore", "panel", "rooms", "prompts", "timekeeper", "steps",
                 "guards", "answers", "tables", "languages", "writes", "messages", "timers",
                 "callbacks"],
    "storage": ["__main__", "__init__", "tools", "db", "network", "shop", "staff", "repos",
                "standing", "spreadsheets", "txn", "backends", "schema"],
    "record": ["protocol", "outcome", "table", "log_events", "posts"],
    "standing": ["counting", "roles", "rating"],
}

# Imports made for annotations only (under ``if TYPE_CHECKING:``) that point up the order.
TYPE_ONLY_UP: set[tuple[str, str]] = set()

MAX_MODULES = 16  # a folder holding more is a prompt to find the two ideas in it


def modules() -> Iterator[tuple[str, Path]]:
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path


def imports_of(name: str, path: Path) -> Iterator[tuple[str, bool]]:
    """(imported module or name, whether only for type checking)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, id(node) in typing_only
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                yield f"{module}.{alias.name}", id(node) in typing_only
            yield module, id(node) in typing_only


def ours(target: str) -> bool:
    return target.split(".")[0] in PRODUCT


def part_of(package: str, module: str) -> str | None:
    prefix = package + "."
    if not module.startswith(prefix):
        return None
    return module[len(prefix):].split(".")[0]


def test_packages_import() -> None:
    for name in (*PRODUCT, "benchmarks"):
        assert importlib.import_module(name).__name__ == name


def test_the_top_level_packages_import_one_way() -> None:
    wrong = sorted(
        f"{name} -> {target}"
        for name, path in modules() for target, _ in imports_of(name, path)
        if ours(target) and target.split(".")[0] != name.split(".")[0]
        and target.split(".")[0] not in ALLOWED[name.split(".")[0]])
    assert wrong == []


def test_inside_a_package_each_part_imports_only_the_parts_below_it() -> None:
    wrong = []
    for package, order in ORDER.items():
        for name, path in modules():
            mine = part_of(package, name)
            if mine not in order:
                continue
            for target, typing_only in imports_of(name, path):
                theirs = part_of(package, target)
                if theirs is None or theirs == mine or theirs not in order:
                    continue
                if order.index(theirs) < order.index(mine):
                    exempt = typing_only and any(
                        name == a and target.startswith(b) for a, b in TYPE_ONLY_UP)
                    if not exempt:
                        wrong.append(f"{name} -> {target}")
    assert sorted(set(wrong)) == []


def test_no_module_of_bot_imports_in_a_circle() -> None:
    """Following every import, those for annotations only too (but the exceptions named in
    ``TYPE_ONLY_UP``), no module of ``bot`` reaches itself again; a cycle is named by its
    modules."""
    names = {name for name, _ in modules() if name.split(".")[0] == "bot"}
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        if name in names:
            graph[name] = {target if target in names else target.rpartition(".")[0]
                           for target, typing_only in imports_of(name, path)
                           if (target in names or target.rpartition(".")[0] in names)
                           and not (typing_only and any(name == a and target.startswith(b)
                                                        for a, b in TYPE_ONLY_UP))}
            graph[name] -= {name}
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycles.append([*path[path.index(name):], name])
            return
        if name in done:
            return
        for target in sorted(graph.get(name, ())):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert cycles == []


def test_the_type_only_exceptions_are_still_needed() -> None:
    """An exception that no import needs any more is taken off the list."""
    used = {(name, a_b[1]) for name, path in modules() for a_b in TYPE_ONLY_UP
            if name == a_b[0] for target, t in imports_of(name, path)
            if t and target.startswith(a_b[1])}
    assert used == TYPE_ONLY_UP


def test_every_folder_says_what_lives_there_and_what_it_may_import() -> None:
    missing = []
    for top in PRODUCT:
        for init in [ROOT / top / "__init__.py", *(ROOT / top).rglob("*/__init__.py")]:
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            if "May import:" not in doc:
                missing.append(str(init.relative_to(ROOT)))
    assert missing == []


def test_no_folder_holds_more_than_about_sixteen_modules() -> None:
    crowded = {}
    for top in PRODUCT:
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            count = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
            if count > MAX_MODULES:
                crowded[str(folder.relative_to(ROOT))] = count
    assert crowded == {}


# Type names still meaning two things, each waiting for its rename (module: what it means).
TYPE_NAMES_LEFT: dict[str, set[str]] = {}


def test_a_class_or_type_name_means_one_thing_in_the_whole_product() -> None:
    """A class is defined once; a type alias (``Name = <type>`` at a module's top) may be
    written again only as the very same type, and never under a class's name."""
    where: dict[str, set[str]] = {}
    meanings: dict[str, set[str]] = {}
    for name, path in modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, set()).add(name)
                meanings.setdefault(node.name, set()).add(f"class {name}")
            elif (isinstance(node, ast.Assign) and len(node.targets) == 1
                  and isinstance(target := node.targets[0], ast.Name)
                  and target.id[0].isupper() and not target.id.isupper()):
                where.setdefault(target.id, set()).add(name)
                meanings.setdefault(target.id, set()).add(ast.unparse(node.value))
    assert {k: where[k] for k, v in meanings.items() if len(v) > 1} == TYPE_NAMES_LEFT


# Module names found in several places. Each is one concept with a module in each layer that
# has a part of it (the rules, the log, the standing, storage, the words, the commands, the
# services, the rooms of a game): the name says the concept, the folder says the layer.
# ``__main__`` is each package's command line. Any other repeat is a name meaning two things.
ONE_CONCEPT_PER_LAYER = {
    "__main__": {"engine.__main__", "storage.__main__", "web.__main__", "bot.__main__"},
    "achievements": {"standing.achievements", "storage.standing.achievements",
                     "views.achievements"},
    "admin": {"bot.handlers.admin", "bot.services.admin"},
    "app": {"web.app", "bot.app"},  # each process's application: the pages', the bot's
    "callbacks": {"bot.evenings.callbacks", "bot.game.callbacks"},
    "day": {"engine.day", "bot.game.rooms.day"},
    "errors": {"engine.errors", "storage.errors", "bot.errors"},
    "evenings": {"storage.repos.evenings", "views.evenings", "bot.evenings",
                 "bot.handlers.evenings"},
    "expiry": {"storage.repos.expiry", "bot.services.expiry"},
    "fouls": {"engine.fouls", "bot.game.rooms.fouls"},
    "game": {"engine.game", "bot.game"},
    "moving": {"bot.handlers.moving", "bot.services.moving"},
    "network": {"storage.network", "bot.services.network"},
    "night": {"engine.night", "bot.game.rooms.night"},
    "postgres": {"storage.backends.postgres", "storage.schema.postgres"},
    "roles": {"engine.roles", "standing.roles"},
    "seasons": {"standing.seasons", "storage.standing.seasons", "views.seasons",
                "bot.services.seasons"},
    "service": {"bot.evenings.service", "bot.game.service"},
    "shop": {"storage.shop", "bot.handlers.shop", "bot.services.shop"},
    "sqlite": {"storage.backends.sqlite", "storage.schema.sqlite"},
    "staff": {"storage.staff", "bot.services.staff"},
    "standing": {"standing", "storage.standing", "views.standing"},
    "stats": {"storage.repos.stats", "views.stats", "bot.handlers.stats"},
    "voids": {"bot.handlers.voids", "bot.services.voids"},
}
# Module names still meaning two things, each waiting for its rename.
TWO_MEANINGS_LEFT: dict[str, set[str]] = {}


def repeated_module_names() -> dict[str, set[str]]:
    where: dict[str, set[str]] = {}
    for name, _ in modules():
        where.setdefault(name.rpartition(".")[2], set()).add(name)
    return {k: v for k, v in where.items() if len(v) > 1}


def test_a_module_name_means_one_thing_in_the_whole_product() -> None:
    """A repeat is one concept across the layers (the list above, module by module, so a new
    module of the same name is seen), or a name to rename."""
    assert repeated_module_names() == ONE_CONCEPT_PER_LAYER | TWO_MEANINGS_LEFT


# Where a game is told: a "step" is the unit of work of a game (its lock, its apply, its one
# write), a "stage" is ``Stage`` (lobby, night, vote...), a "moment" the phase's number the
# buttons carry. The folders that speak of them:
GAME_WORDS = ("record", "bot.game", "bot.handlers", "bot.miniapp")


def test_a_step_is_a_unit_of_work_and_a_stage_a_stage() -> None:
    """In the game's code no number is named ``step`` (the phase's number is a ``moment``),
    and no function is named after staging (``stage_*``, ``*_stage``): a step's write is
    queued, its events recorded."""
    wrong = []
    for name, path in modules():
        if not name.startswith(GAME_WORDS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and re.search(
                    r"(^|_)stag(e|ed|ing)(_|$)", node.name):
                wrong.append(f"{name}: def {node.name}")
            numbered = ((node.arg, node.annotation) if isinstance(node, ast.arg)
                        else (node.target.id, node.annotation)
                        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                        else None)
            if numbered is not None and numbered[0] == "step" and numbered[1] is not None \
                    and "int" in ast.unparse(numbered[1]):
                wrong.append(f"{name}: {numbered[0]}: {ast.unparse(numbered[1])}")
    assert wrong == []


# The only modules where a name says "step", each with why: there it is a game's unit of work.
STEP_IS_A_GAMES_UNIT_OF_WORK = {
    "bot.game": "the game's code: bot/game/steps.py's Steps, which every room acts through",
    "storage.repos.games": "a game's step written in one transaction",
    "benchmarks.bench_writers": "game steps written a second",
}
STEP_WORD = re.compile(r"step(s|ped|ping)?")


def says_step(name: str) -> bool:
    """Whether a name (snake_case, CamelCase, a locale id) has the word "step" in it."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)
    return any(STEP_WORD.fullmatch(word.lower()) for word in words)


def names_made(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """The names a module makes: functions, classes, arguments (taken and given by keyword),
    assignments, attributes set, imports."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg | ast.keyword) and node.arg is not None:
            yield node.lineno, node.arg
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            yield node.lineno, node.attr
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield node.lineno, alias.asname or alias.name.rpartition(".")[2]


def benchmark_modules() -> Iterator[tuple[str, Path]]:
    for path in sorted((ROOT / "benchmarks").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def test_a_step_is_a_games_unit_of_work_in_the_whole_product() -> None:
    """Outside the modules above no name of the code and no locale id or variable says "step":
    a settings button nudges a value by an increment, a dialog takes turns, a replayed
    protocol has entries (its JSON key ``steps`` is the format's, a string)."""
    wrong = []
    for name, path in [*modules(), *benchmark_modules()]:
        if any(name == m or name.startswith(m + ".") for m in STEP_IS_A_GAMES_UNIT_OF_WORK):
            continue
        wrong += [f"{name}:{line} {made}" for line, made in
                  names_made(ast.parse(path.read_text(encoding="utf-8"))) if says_step(made)]
    for ftl in sorted((ROOT / "locales").rglob("*.ftl")):
        for number, line in enumerate(ftl.read_text(encoding="utf-8").splitlines(), 1):
            message = re.match(r"-?([\w-]+)\s*=", line)
            made = ([message[1]] if message else []) + re.findall(r"\$([\w-]+)", line)
            wrong += [f"{ftl.relative_to(ROOT)}:{number} {m}" for m in made if says_step(m)]
    assert wrong == []


# Names that start with "_" and are public all the same (NamedTuple's API, os._exit).
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_exit"}


def test_no_private_attribute_of_a_library_is_read() -> None:
    """``obj._thing`` only on our own objects: a library's private parts change in any patch
    release. Ours are those a module defines itself, or that one of our classes sets on
    ``self`` or defines as a method (a base class of ours)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for _, path in modules()}
    set_on_self = {node.attr for tree in trees.values() for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                   and isinstance(node.value, ast.Name) and node.value.id == "self"}
    set_on_self |= {node.name for tree in trees.values() for node in ast.walk(tree)
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    foreign = []
    for path, tree in trees.items():
        local = set(PUBLIC_UNDERSCORED)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                local.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                local.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                local.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                local.add(node.target.id)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")) or node.attr in local:
                continue
            on_self = isinstance(node.value, ast.Name) and node.value.id == "self"
            if not (on_self and node.attr in set_on_self):
                foreign.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert foreign == []


def test_no_class_overrides_a_private_method_of_a_library() -> None:
    overriding = []
    for name, path in modules():
        defined = {(node.name, item.name)
                   for node in ast.parse(path.read_text(encoding="utf-8")).body
                   if isinstance(node, ast.ClassDef) for item in node.body
                   if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                   and item.name.startswith("_") and not item.name.startswith("__")}
        if not defined:
            continue
        module = importlib.import_module(name)
        for cls_name, method in defined:
            for base in getattr(module, cls_name).__mro__[1:]:
                if base.__module__.split(".")[0] not in PRODUCT and method in vars(base):
                    overriding.append(f"{name}.{cls_name}.{method} ({base.__module__})")
    assert overriding == []


def test_the_readme_names_every_folder_of_the_tree() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `([\w/]+)/` \|", section, flags=re.M))
    tree = {p.name for p in ROOT.iterdir()
            if p.is_dir() and not p.name.startswith(".") and p.name not in ("data", "build")
            and any(p.iterdir())}
    tree -= {p for p in tree if p.endswith(".egg-info") or p == "__pycache__"}
    assert named == tree


def test_the_architecture_document_names_every_folder_and_where_to_start() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    folders = {str(init.parent.relative_to(ROOT)) for top in PRODUCT
               for init in [ROOT / top / "__init__.py", *(ROOT / top).rglob("*/__init__.py")]}
    missing = sorted(f for f in folders if f"`{f}/`" not in text)
    assert missing == []

