import importlib


def test_packages_import() -> None:
    for name in ("engine", "storage", "bot", "web"):
        assert importlib.import_module(name).__name__ == name
