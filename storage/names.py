"""Player names as FORMAT.md stores them, for data written before those rules.

Since schema version 4 a name is stored normalised (NFC, one space, trimmed), holds no control
or invisible character, and two names are the same name when their NFKC case-folded forms are
equal; since version 6 it holds a variation selector only right after a character that takes
one, and may hold a flag's tag characters. Older data may hold names that break this: the
migration makes each one valid (`clean_name`: version 6 runs it again, and it drops a stray
selector), and where two players of one roster or one game now have the same name, the later
one is renamed "Name 2" — every change is reported, nothing is merged silently (a selector
dropped is no change worth telling: it showed nothing).

The migration keeps to version 4's rule (`folded_name`): names that are one name only because
they look the same across scripts (version 5's rule, "Anna" and "Аnna") are not renamed, in a
roster or a game; version 5 reports them and keeps them as they are.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from scoring.table import clean_name, folded_name, is_stray_selector

Rename = tuple[str, str]  # (the name as it was, the name now)


def shown(name: str) -> str:
    """A name with its invisible or control characters, and the variation selectors a name
    drops, written as codes, for a message ("Anna<U+FE0F>": a flag's tags are codes too)."""
    return "".join(
        f"<U+{ord(c):04X}>"
        if unicodedata.category(c) in ("Cc", "Cf") or is_stray_selector(name, index)
        else c
        for index, c in enumerate(name)
    )


def distinct(names: list[str]) -> list[str]:
    """`names` made valid and different from each other: a later clash becomes "Name 2"."""
    taken: set[str] = set()
    result: list[str] = []
    for index, raw in enumerate(names):
        name = clean_name(raw, fallback=f"Player {index + 1}")
        candidate, number = name, 1
        while folded_name(candidate) in taken:
            number += 1
            candidate = f"{name[: 40 - len(str(number)) - 1]} {number}"
        taken.add(folded_name(candidate))
        result.append(candidate)
    return result


def normalise_roster(players: list[dict[str, Any]]) -> list[Rename]:
    """Make the roster's names valid and distinct, in place (earlier entries keep theirs)."""
    renames: list[Rename] = []
    for player, name in zip(players, distinct([p["name"] for p in players]), strict=True):
        if _noticeable(player["name"], name):
            renames.append((player["name"], name))
        player["name"] = name
        former = [clean_name(n, fallback="") for n in player.get("former_names", [])]
        player["former_names"] = [n for n in former if n]
    return renames


def normalise_record(record: dict[str, Any]) -> list[Rename]:
    """Make a record's player names valid and distinct, in place: each renamed player is
    renamed wherever the record names them exactly (options and rounds); other references
    already find their player by the NFKC case-folded form."""
    players = record.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and isinstance(p.get("name"), str) for p in players
    ):
        return []  # not a record that can be opened: the checks keep it aside
    raw = [player["name"] for player in players]
    renames: list[Rename] = []
    for player, old, new in zip(record["players"], raw, distinct(raw), strict=True):
        player["name"] = new
        if new == old:
            continue
        if _noticeable(old, new):
            renames.append((old, new))
        for part in ("options", "rounds"):
            if part in record:
                record[part] = _renamed(record[part], old, new)
    return renames


def _noticeable(old: str, new: str) -> bool:
    """Whether a change of name is more than its spelling in Unicode (worth telling)."""
    return clean_name(old, fallback="") != new or folded_name(old) != folded_name(new)


def _renamed(value: Any, old: str, new: str) -> Any:
    """`value` with every key and text exactly `old` replaced by `new`."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    return new if value == old else value
