"""Backups and checks from the command line.

    python -m storage [--data-dir DIR] import FILE...
    python -m storage [--data-dir DIR] export [--game ID] [--out FILE]
    python -m storage [--data-dir DIR] check
    python -m storage [--data-dir DIR] bgstats GAME_ID [--json]

The data folder is --data-dir, else $DEBRIEF_DATA_DIR, else the app's usual one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import backup, bgstats
from . import errors as err
from .files import write_atomically
from .store import Store

EXIT_PROBLEMS = 1
EXIT_REFUSED = 2


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        store = Store.open(args.data_dir)
    except err.StorageError as error:
        print(error.message, file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        for notice in store.notices:
            print(f"note: {notice.message}", file=sys.stderr)
            games = notice.params.get("games")
            for summary in games if isinstance(games, tuple) else ():
                print(f"  {summary.id}: {summary.game}, {summary.started}", file=sys.stderr)
        commands = {"import": _import, "export": _export, "check": _check, "bgstats": _bgstats}
        command = commands[args.command]
        return command(store, args)
    except err.StorageError as error:
        print(error.message, file=sys.stderr)
        return EXIT_REFUSED if args.command == "import" else EXIT_PROBLEMS
    finally:
        store.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m storage", description="Debrief's data: backups and checks"
    )
    parser.add_argument("--data-dir", help="the data folder (default: $DEBRIEF_DATA_DIR)")
    # Also accepted after the command; SUPPRESS keeps a value given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True)
    imp = commands.add_parser(
        "import", parents=[common], help="add game records, lists of records or backups"
    )
    imp.add_argument("files", nargs="+", type=Path)
    exp = commands.add_parser("export", parents=[common], help="write a backup of everything")
    exp.add_argument("--game", help="only this game (its id)")
    exp.add_argument("--out", type=Path, help="the backup file (default: standard output)")
    commands.add_parser(
        "check", parents=[common], help="load and validate everything; exit 1 if anything is wrong"
    )
    logged = commands.add_parser(
        "bgstats", parents=[common], help="the link that logs a finished game in BG Stats"
    )
    logged.add_argument("game_id", help="the game's id")
    logged.add_argument("--json", action="store_true", help="print the play itself (JSON)")
    return parser


def _bgstats(store: Store, args: argparse.Namespace) -> int:
    """The link (or with --json the play) of a finished game; a game that is unknown, in the
    bin or still going on is a problem (StorageError: one line, exit 1)."""
    play = bgstats.stored_play(store, args.game_id)
    if args.json:
        print(json.dumps(play, ensure_ascii=False, indent=1))
    else:
        print(bgstats.link_of(play))
    return 0


def _import(store: Store, args: argparse.Namespace) -> int:
    """Each file all or nothing: a file with any problem adds nothing."""
    refused = False
    for path in args.files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            plan = backup.plan_import(store, data, str(path))
        except (OSError, ValueError, RecursionError) as error:
            print(f"{path}: cannot be read ({error})", file=sys.stderr)
            refused = True
            continue
        except err.NotABackup as error:
            print(error.message, file=sys.stderr)
            refused = True
            continue
        if not plan.ok:
            refused = True
            print(f"{path}: refused, nothing imported from it:", file=sys.stderr)
            for problem in plan.errors:
                print(f"  {problem}", file=sys.stderr)
            continue
        backup.apply_import(store, plan)
        print(
            f"{path}: {counted(len(plan.games), 'game')} added, {len(plan.skipped)} already "
            f"there, {counted(len(plan.players), 'player')} added"
        )
    return EXIT_REFUSED if refused else 0


def counted(count: int, thing: str) -> str:
    """ "1 game", "2 games" (the command line speaks English, as its problems do)."""
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"


def _export(store: Store, args: argparse.Namespace) -> int:
    try:
        document = backup.export_backup(store, args.game)
    except err.GameNotFound as error:
        print(error.message, file=sys.stderr)
        return EXIT_PROBLEMS
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        problem = _unwritable(args.out, store.folder)
        if problem:
            print(problem, file=sys.stderr)
            return EXIT_PROBLEMS
        write_atomically(args.out.resolve(), text)
        print(
            f"{len(document['games'])} games and {len(document['players'])} players "
            f"written to {args.out}",
            file=sys.stderr,
        )
    refused = backup.needing_correction(store, document)
    for game_id, reason in refused:
        print(
            f"{game_id}: written as it is, but it needs a correction and an import refuses it "
            f"until it is corrected: {reason}",
            file=sys.stderr,
        )
    return EXIT_PROBLEMS if refused else 0


def _unwritable(out: Path, data_folder: Path) -> str | None:
    """Why a backup cannot go to `out` (None: it can)."""
    target = out.resolve()
    if target.is_dir():
        return f"{out} is a folder: give the backup a file name (e.g. {out / 'backup.json'})"
    if not target.parent.is_dir():
        return f"{out}: the folder {target.parent} does not exist"
    if target.is_relative_to(data_folder.resolve()):
        return f"{out} is inside the data folder {data_folder}: choose a place outside it"
    return None


def _check(store: Store, args: argparse.Namespace) -> int:
    """Every record read and checked; what opening the data found and set right counts too
    (it is said above as a note: an archive file that changed since Debrief last checked it
    is read when the data is opened)."""
    found_at_open = [notice for notice in store.notices if notice.damage]
    count, problems = store.check()
    players = len(store.players(include_archived=True))
    for problem in problems:
        print(problem, file=sys.stderr)
    problems += [notice.message for notice in found_at_open]
    state = "everything is fine" if not problems else f"{len(problems)} problems"
    print(f"{store.folder}: {count} games, {players} players: {state}")
    return EXIT_PROBLEMS if problems else 0


if __name__ == "__main__":
    sys.exit(main())
