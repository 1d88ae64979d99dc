"""A finished game as a play for BG Stats, the play logger many tables already use.

BG Stats takes a play as a link: ``https://app.bgstatsapp.com/createPlay.html?data=`` and the
play as URL-encoded JSON (its support page "Push plays to BG Stats from other apps or
websites"). Opening the link on a phone with BG Stats shows the play in BG Stats' own import
dialog; nothing is logged before the player confirms it there.

- `sourcePlayId` is the game's id: sending the same game again updates that play in BG Stats
  instead of adding one. `sourceGameId` names the game itself ("black-spy"), and each player's
  `sourcePlayerId` is the roster player's id, the same person in every game (a name that is in
  no roster, as in an imported game, stands for itself: "name:anna").
- `playDate` is the play's end, in UTC, as "YYYY-MM-DD HH:MM:SS": what the support page asks
  for, as integrations that cite it read it (the page itself could not be fetched here; see
  docs/data.md). `durationMin` from the game's start to its end.
- No `bggId`: none of the four games could be confirmed on BoardGameGeek's own pages from
  here, and a wrong one would file the play under another game. BG Stats matches by name.
- `winner` is always given (BG Stats' Android app refuses a player without it), `score` not
  for SPY (places only: `noPoints`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import scoring

from . import errors as err

if TYPE_CHECKING:
    from .store import Store

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Debrief"


def roster_ids(players: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each roster player's id by their name and former names (case does not matter)."""
    ids: dict[str, str] = {}
    for player in players:
        for name in [*player.get("former_names", []), player["name"]]:  # the name wins
            ids[str(name).casefold()] = str(player["id"])
    return ids


def player_id(name: str, ids: Mapping[str, str]) -> str:
    """The roster player's id for `name`, or one made of the name itself."""
    return ids.get(name.casefold()) or f"name:{name.casefold()}"


def play_of(
    record: Mapping[str, Any],
    result: scoring.Replay,
    ended: str | None,
    ids: Mapping[str, str],
) -> dict[str, Any]:
    """The BG Stats play of a finished game (`result`: its replay; `ended`: when it ended,
    ISO 8601; `ids`: `roster_ids`). Raises GameNotFinished for a game that goes on."""
    meta = record["meta"]
    game_id = str(meta["id"])
    if not result.finished:
        raise err.GameNotFinished(game_id=game_id)
    rules = scoring.GAMES[record["game"]]
    players = list(record["players"])
    starter = rules.starter(players, record["options"])
    places, winners = result.places, set(result.winners)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game_id,
        "game": {
            "name": rules.title,
            "sourceGameId": rules.id,
            "highestWins": not rules.lower_is_better,
            "noPoints": rules.places_only,
        },
        "players": [
            {
                "name": player["name"],
                "sourcePlayerId": player_id(player["name"], ids),
                **({} if rules.places_only else {"score": number(result.totals[player["name"]])}),
                "rank": places[player["name"]],
                "winner": player["name"] in winners,
                "startPlayer": player["name"] == starter,
            }
            for player in players
        ],
        "comments": comments(game_id, record["options"]),
    }
    end = moment(ended)
    if end is not None:
        play["playDate"] = end.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
        start = moment(meta.get("started"))
        if start is not None and start <= end:
            play["durationMin"] = int((end - start).total_seconds() + 30) // 60  # the nearest
    return play


def stored_play(store: Store, game_id: str) -> dict[str, Any]:
    """The play of a stored game. Raises GameNotFound, GameInBin or GameNotFinished."""
    at = store.game_at(game_id)
    if store.summary(game_id).deleted_at is not None:
        raise err.GameInBin(game_id=game_id)
    ids = roster_ids(store.players(include_archived=True))
    return play_of(at.record, at.result, store.ended_at(game_id), ids)


# JSON's own punctuation is left as it is in the link (a browser reads it so): the link is a
# third shorter than with every character encoded, and its code fewer, bigger squares.
KEPT_IN_LINK = ':,{}[]"'


def link_of(play: Mapping[str, Any]) -> str:
    """The createPlay link that hands `play` to BG Stats."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(data, safe=KEPT_IN_LINK)}"


def number(value: Fraction) -> int | float:
    """A total as JSON: whole numbers as integers, halves (Kompromat, Black Spy) exactly."""
    return int(value) if value.denominator == 1 else float(value)


def moment(text: object) -> dt.datetime | None:
    """An ISO 8601 time with its offset, or None (missing, unreadable, or without an offset:
    it could not be put in UTC)."""
    if not isinstance(text, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def comments(game_id: str, options: Mapping[str, Any]) -> str:
    """The options played and the game's id, for the play's comments ("Options: first dealer
    Anna; variants the-mole, going-back. Debrief game 3f2a…")."""
    said = []
    for key, value in options.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        if shown:
            said.append(f"{key.replace('_', ' ')} {shown}")
    played = f"Options: {'; '.join(said)}. " if said else ""
    return f"{played}Debrief game {game_id}"
