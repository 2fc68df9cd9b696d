# Sourced by scripts/*: creates .venv with the project and its dev tools, pinned by
# requirements-dev.lock (hashes checked); reinstalls when the lock or pyproject.toml changes.
# Refresh the lock with scripts/lock.
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(cat pyproject.toml requirements-dev.lock | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install -q --require-hashes -r requirements-dev.lock
    .venv/bin/python -m pip install -q --no-deps -e .
    rm -f .venv/.installed-* && touch "$stamp"
fi
