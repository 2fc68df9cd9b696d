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
