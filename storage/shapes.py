"""What each stored document must look like; a document that does not is kept aside.

Debrief writes every document itself, so a wrong one means a disk fault, a crash of an older
version or a hand edit. Each check returns None for a usable document, or the reason (plain
English, shown to the user inside a translated notice) why it cannot be used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import scoring
from scoring.reader import Reader
from scoring.table import read_birth, read_name

JOURNAL_OPERATIONS = frozenset({"finish", "edit", "delete", "reopen"})
IMPORT_PARTS = ("archived", "index", "active", "players")


Replayed = Callable[[dict[str, Any], scoring.Replay, scoring.Correction | None], None]


def game_problem(doc: Any, replayed: Replayed | None = None) -> str | None:
    """A stored game: ``{"record": <a record that can be opened>, "deleted_at": time|None}``.

    A record may break a rule in its rounds (it then needs a correction); outside its rounds
    it must be valid, or the game cannot be shown at all. `replayed` is given the replay of
    a game that can be opened (and its correction), for what else needs it.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("record"), dict):
        return "it holds no game record"
    if not isinstance(doc.get("deleted_at"), str | None):
        return "its deletion time is not a time"
    try:
        result, correction = scoring.replay_until_broken(doc["record"])
    except scoring.InvalidRecord as invalid:
        return str(invalid.errors[0])
    except RecursionError:
        return "it is nested too deeply"
    if replayed is not None:
        replayed(doc, result, correction)
    return None


def game_shape_problem(doc: Any) -> str | None:
    """The quick check of an archived game read on first use (the full one is `check`)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("record"), dict):
        return "it holds no game record"
    return None


def player_shape_problem(doc: Any) -> str | None:
    """What a migration needs of a roster entry: a name in text and the other fields' types."""
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str):
        return "it is not a player"
    return _player_fields_problem(doc)


def _player_fields_problem(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("archived"), bool):
        return "archived is not true or false"
    former = doc.get("former_names")
    if not isinstance(former, list) or not all(isinstance(n, str) for n in former):
        return "its former names are not a list of names"
    return None


def player_problem(doc: Any) -> str | None:
    """A roster entry: a valid name, a birth date or None, archived true/false, former names."""
    if not isinstance(doc, dict):
        return "it is not a player"
    reader = Reader()
    if read_name(reader, doc.get("name"), "name") is None:
        return str(reader.errors[0])
    if doc.get("born") is not None and read_birth(reader, doc["born"], "born") is None:
        return str(reader.errors[0])
    return _player_fields_problem(doc)


def setting_problem(doc: Any) -> str | None:
    return None if isinstance(doc, dict) and "value" in doc else "it holds no value"


def draft_problem(doc: Any) -> str | None:
    """A round being entered: ``{"round": index or None, "entry": {...}}``."""
    if not isinstance(doc, dict) or not isinstance(doc.get("entry"), dict):
        return "it is not a draft"
    if doc.get("round") is not None and not isinstance(doc.get("round"), int):
        return "it is not a draft"
    return None


def history_problem(doc: Any) -> str | None:
    """An undo history: ``{"undo": [steps], "redo": [steps]}``, each step a dict."""
    if not isinstance(doc, dict):
        return "it is not an undo history"
    for part in ("undo", "redo"):
        steps = doc.get(part)
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            return "it is not an undo history"
    return None


def journal_problem(journal: Any) -> str | None:
    """The journal of an interrupted change: an import with everything it writes, or another
    change with the ids of the games it touches."""
    if not isinstance(journal, dict):
        return "it is not a journal"
    operation = journal.get("operation")
    if operation == "import":
        parts = [journal.get(part) for part in IMPORT_PARTS]
        if not all(isinstance(part, dict) for part in parts):
            return "its import is incomplete"
        archived, index, active, players = (dict(part or {}) for part in parts)
        documents = [*index.values(), *active.values(), *players.values()]
        documents += [
            doc for shard in archived.values() if isinstance(shard, dict) for doc in shard.values()
        ]
        if not all(isinstance(shard, dict) for shard in archived.values()) or not all(
            isinstance(doc, dict) for doc in documents
        ):
            return "its import is incomplete"
        return None
    games = journal.get("games")
    if operation not in JOURNAL_OPERATIONS or not isinstance(games, list):
        return "it is not a journal"
    if not all(isinstance(game_id, str) for game_id in games):
        return "it is not a journal"
    return None
