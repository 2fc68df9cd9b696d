"""Command line: ``python -m engine replay FILE`` (or ``-`` for standard input)."""

from __future__ import annotations

import argparse
import json
import sys

from engine.points import PointsConfig
from engine.replay import replay_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay a game protocol, print its result")
    replay_cmd.add_argument("file", help="protocol JSON file, or - for standard input")
    replay_cmd.add_argument("--points", help="a club's points TOML instead of the default")
    args = parser.parse_args(argv)

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        points = PointsConfig.load(args.points) if args.points else PointsConfig.load()
    except (OSError, UnicodeDecodeError, ValueError) as err:
        print(f"protocol: cannot read: {err}", file=sys.stderr)
        return 2
    outcome = replay_text(text, points)
    if outcome.error is not None:
        print(outcome.error, file=sys.stderr)
        return 2
    json.dump(outcome.result, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
