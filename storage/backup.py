"""Backups: export everything (or one game) and import records or backups again.

A backup is ``{"format": "debrief-backup/1", "players": [...], "games": [records]}``. Games in
the bin are not exported (a record has no place to say it was deleted). A player entry holds
`name`, `born`, `archived`, `former_names` and `color` (one of storage.colors.COLORS; a backup
made before colours has none, and its players are given colours in turn).

An import is planned before anything is written (`plan_import`): what it would add, what it
skips because a game with the same id is already there, and every problem with its path inside
the file. A file with any problem is refused whole; `apply_import` writes a clean plan.
"""

from __future__ import annotations

import csv
import io
import uuid
from dataclasses import dataclass, field
from typing import Any

import scoring
import scoring.numbers
from scoring.errors import NameOfAnotherPlayer, RecordError
from scoring.reader import Reader, child
from scoring.table import name_key, normal_name, read_birth, read_name

from . import colors
from . import errors as err
from .store import Record, Store
from .summaries import Summary
from .trees import copied

BACKUP_FORMAT = "debrief-backup/1"


@dataclass
class ImportPlan:
    source: str
    games: list[Record] = field(default_factory=list)  # new games, ready to store
    skipped: list[str] = field(default_factory=list)  # ids already stored (or twice in the file)
    players: list[dict[str, Any]] = field(default_factory=list)  # new roster entries
    errors: list[RecordError] = field(default_factory=list)
    # Each new game played through when it was checked (by id), so storing it needs no replay.
    replays: dict[str, scoring.Replay] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def with_prefix(error: RecordError, prefix: str) -> RecordError:
    """The same error, its path seen from the whole file (``games[3].rounds[0]...``)."""
    if not error.path:
        path = prefix
    elif error.path.startswith("[") or not prefix:
        path = prefix + error.path
    else:
        path = f"{prefix}.{error.path}"
    return type(error)(path, **error.params)


def _entries(data: Any, source: str) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """(player entries, game entries), each as (path prefix, raw value)."""
    if isinstance(data, dict) and data.get("format") == BACKUP_FORMAT:
        players = data.get("players", [])
        games = data.get("games", [])
        if (
            not isinstance(players, list)
            or not isinstance(games, list)
            or set(data) - {"format", "players", "games"}
        ):
            raise err.NotABackup(source=source)
        return (
            [(child("players", i), p) for i, p in enumerate(players)],
            [(child("games", i), g) for i, g in enumerate(games)],
        )
    if isinstance(data, list):
        return [], [(f"[{i}]", g) for i, g in enumerate(data)]
    if isinstance(data, dict) and "game" in data:
        return [], [("", data)]
    raise err.NotABackup(source=source)


def plan_import(store: Store, data: Any, source: str) -> ImportPlan:
    """What importing `data` (parsed JSON) would do. Raises `NotABackup` for other JSON."""
    player_entries, game_entries = _entries(data, source)
    plan = ImportPlan(source)
    seen: set[str] = set()
    for prefix, raw in game_entries:
        played, problems = scoring.checked(raw)
        if played is None:
            plan.errors += [with_prefix(problem, prefix) for problem in problems]
            continue
        record = copied(raw)
        meta = record.setdefault("meta", {})
        game_id = meta.get("id") or uuid.uuid4().hex
        meta["id"] = game_id
        if game_id in seen or store.contains_game(game_id):
            plan.skipped.append(game_id)
        else:
            plan.games.append(record)
            plan.replays[game_id] = played
        seen.add(game_id)
    plan.players = _new_players(store, player_entries, plan)
    _add_players_of_games(store, plan)
    plan.errors.sort(key=lambda error: not error.path.startswith("players"))  # file order
    return plan


def _add_players_of_games(store: Store, plan: ImportPlan) -> None:
    """Players of imported games who are not in the roster (under any name) join it, named as
    the game stores them (`normal_name`)."""
    known = {
        name_key(n)
        for p in store.players(include_archived=True)
        for n in [p["name"], *p["former_names"]]
    }
    known |= {name_key(n) for p in plan.players for n in [p["name"], *p["former_names"]]}
    for record in plan.games:
        for player in record["players"]:
            name = normal_name(player["name"])
            if name_key(name) not in known:
                known.add(name_key(name))
                born = player.get("born")
                plan.players.append(
                    {
                        "name": name,
                        "born": None if born is None else str(born),
                        "archived": False,
                        "former_names": [],
                    }
                )


def _new_players(
    store: Store, entries: list[tuple[str, Any]], plan: ImportPlan
) -> list[dict[str, Any]]:
    """The backup's roster entries not in the roster yet, each validated as strictly as a game
    record: a valid name, birth date, archived true/false, former names that are valid names
    and nobody else's."""
    owner = {
        name_key(n): p["name"]
        for p in store.players(include_archived=True)
        for n in [p["name"], *p["former_names"]]
    }
    new: list[dict[str, Any]] = []
    for path, raw in entries:
        reader = Reader()
        player = _read_player(reader, raw, path, owner)
        plan.errors += reader.errors
        if player is None or reader.errors or name_key(player["name"]) in owner:
            continue
        for name in [player["name"], *player["former_names"]]:
            owner[name_key(name)] = player["name"]
        new.append(player)
    return new


def _read_player(
    reader: Reader, raw: Any, path: str, owner: dict[str, str]
) -> dict[str, Any] | None:
    fields = reader.obj(
        raw, path, required=["name"], optional=["born", "archived", "former_names", "color"]
    )
    if fields is None:
        return None
    name = read_name(reader, fields.get("name"), child(path, "name"))
    born = None
    if fields.get("born") is not None:
        birth = read_birth(reader, fields["born"], child(path, "born"))
        born = birth.to_json() if birth else None
    archived = reader.flag(fields.get("archived", False), child(path, "archived"))
    former: list[str] = []
    former_path = child(path, "former_names")
    for index, value in enumerate(reader.list(fields.get("former_names", []), former_path) or []):
        former_name = read_name(reader, value, child(former_path, index))
        if former_name is None:
            continue
        other = owner.get(name_key(former_name))
        if other is not None and (name is None or name_key(other) != name_key(name)):
            reader.add(
                NameOfAnotherPlayer(child(former_path, index), name=former_name, other=other)
            )
            continue
        former.append(former_name)
    color = None
    if fields.get("color") is not None:  # none (or null): given one in turn
        color = reader.choice(fields["color"], child(path, "color"), colors.COLORS)
    if name is None:
        return None
    player = {"name": name, "born": born, "archived": bool(archived), "former_names": former}
    return {**player, "color": color} if color is not None else player


def apply_import(store: Store, plan: ImportPlan) -> int:
    """Write a plan without problems as one change (all of it or none of it, roster included);
    returns how many games were added (games another import stored meanwhile are skipped)."""
    if not plan.ok:
        raise err.ImportRefused(source=plan.source, count=len(plan.errors))
    return store.add_games(plan.games, plan.players, plan.replays)


def export_backup(store: Store, game_id: str | None = None) -> dict[str, Any]:
    """Everything (or one game and its players) as a backup document."""
    games = [store.load_game(game_id)] if game_id is not None else list(store.all_records())
    games.sort(key=lambda r: (r.get("meta", {}).get("started") or "", r["meta"]["id"]))
    in_games = {name_key(p["name"]) for r in games for p in r["players"]}
    players = [
        {
            "name": p["name"],
            "born": p["born"],
            "archived": p["archived"],
            "former_names": p["former_names"],
            "color": p["color"],
        }
        for p in store.players(include_archived=True)
        if game_id is None or name_key(p["name"]) in in_games
    ]
    return {"format": BACKUP_FORMAT, "players": players, "games": games}


def needing_correction(store: Store, document: dict[str, Any]) -> list[tuple[str, RecordError]]:
    """The games of an exported backup that an import refuses until they are corrected (stored
    before a rule they break), each with its first problem."""
    flagged = {s.id for s in store.summaries() if s.needs_correction is not None}
    found: list[tuple[str, RecordError]] = []
    for record in document["games"]:
        game_id = str(record.get("meta", {}).get("id"))
        correction = scoring.replay_until_broken(record)[1] if game_id in flagged else None
        if correction is not None:
            found.append((game_id, correction.problems[0]))
    return found


def csv_of_game(record: Record) -> str:
    """One game for a spreadsheet: a row per round with each player's total after it (up to
    the round that needs a correction, for a game stored before a rule it breaks)."""
    result, correction = scoring.replay_until_broken(record)
    names = list(result.table.names)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(cells(["round", *names]))
    for index, totals in enumerate(result.round_totals, start=1):
        writer.writerow([index, *(number(totals[name]) for name in names)])
    if correction is not None:
        writer.writerow(["needs a correction from round", correction.round + 1])
    writer.writerow(cells(["winners", " & ".join(result.winners)]))
    return out.getvalue()


def csv_of_history(summaries: list[Summary]) -> str:
    """Every game for a spreadsheet: a row per player per game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["game_id", "game", "started", "ended", "rounds", "finished", "player", "total", "won"]
    )
    for summary in summaries:
        for name in summary.players:
            writer.writerow(
                [
                    *cells(
                        [
                            summary.id,
                            summary.game,
                            summary.started or "",
                            summary.ended or "",
                        ]
                    ),
                    summary.rounds,
                    summary.finished,
                    safe_cell(name),
                    summary.totals[name],
                    name in summary.winners,
                ]
            )
    return out.getvalue()


# A cell starting with one of these is a formula to a spreadsheet (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """Text a spreadsheet shows as text: a formula-like start gets a leading quote.

    >>> safe_cell("=SUM(A1)"), safe_cell("-1"), safe_cell("Anna")
    ("'=SUM(A1)", "'-1", 'Anna')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cells(texts: list[Any]) -> list[Any]:
    return [safe_cell(t) if isinstance(t, str) else t for t in texts]


def number(value: Any) -> str:
    """A score as the spreadsheet number it is (37.5, -5): never neutralised."""
    return str(scoring.numbers.to_json(value))
