import importlib
from pathlib import Path


def test_packages_import() -> None:
    for name in ("engine", "storage", "bot", "web"):
        assert importlib.import_module(name).__name__ == name


def test_bot_modules_stay_readable_in_one_sitting() -> None:
    """Issue 8: the game layer is cut by phase; no module of ``bot/`` grows past ~400 lines."""
    root = Path(__file__).resolve().parent.parent / "bot"
    long = {str(p.relative_to(root)): n for p in root.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def test_game_layer_reads_like_the_evening() -> None:
    game = Path(__file__).resolve().parent.parent / "bot" / "game"
    rooms = {"core", "lobby", "deal", "night", "day", "results", "host", "restore", "service"}
    assert rooms <= {p.stem for p in game.glob("*.py")}


def test_storage_never_imports_the_layers_above() -> None:
    """storage/ is below bot/ and web/: only its command line (``python -m storage``, a program
    of the whole product) imports the game layer, for ``copy``'s replay of finished games."""
    import ast

    root = Path(__file__).resolve().parent.parent / "storage"
    above = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.split(".")[0] in ("bot", "web"):
                    above.setdefault(str(path.relative_to(root)), []).append(name)
    assert above == {"__main__.py": ["bot.game.outcome"]}
