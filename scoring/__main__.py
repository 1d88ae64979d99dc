"""Command line: ``python -m scoring replay FILE`` (FILE or ``-`` for standard input)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .errors import InvalidRecord
from .replay import standings

EXIT_INVALID = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="Debrief scoring engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay", help="validate a game record and print its standings as JSON"
    )
    replay_cmd.add_argument("file", help="the game record (.json), or - for standard input")
    args = parser.parse_args(argv)
    return replay_file(args.file)


def replay_file(name: str) -> int:
    """Print the standings of the record in `name`; on any problem print it and return 2."""
    try:
        text = sys.stdin.read() if name == "-" else _read(name)
    except OSError as error:
        print(f"{name}: cannot be read ({error.strerror or error})", file=sys.stderr)
        return EXIT_INVALID
    except UnicodeDecodeError:
        print(f"{name}: is not UTF-8 text", file=sys.stderr)
        return EXIT_INVALID
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        print(
            f"{name}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    except (ValueError, RecursionError) as error:  # absurd numbers or nesting
        print(f"{name}: not a game record ({type(error).__name__})", file=sys.stderr)
        return EXIT_INVALID
    try:
        result = standings(record)
    except InvalidRecord as invalid:
        for problem in invalid.errors:
            print(str(problem), file=sys.stderr)
        return EXIT_INVALID
    return _print(json.dumps(result, indent=1, ensure_ascii=False))


def _print(text: str) -> int:
    """Write to stdout; a reader that stops early (``| head``) is not an error."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _read(name: str) -> str:
    with open(name, encoding="utf-8") as handle:
        return handle.read()


if __name__ == "__main__":
    sys.exit(main())
