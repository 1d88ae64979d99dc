"""The list of finished games (``index.json``): one summary per game, derived from the archive.

The file is a TinyDB database on `AtomicStorage` (atomic durable writes; a damaged file is kept
aside) with one document, every summary in it as a row (`storage.summaries`):

    {"summaries": {"all": {"rows": [[id, game, started, …], …]}}}

Reading 10,000 games' summaries is then one `json.loads` of flat lists and a check of the kinds
of each row's fields, not 10,000 TinyDB documents of 15 keys each. Before schema
version 7 the file held one document per game in a table ``games``, each a summary as a JSON
object; such a file is read (every summary checked) and written anew in today's layout.

The summaries are kept in memory as read and handed out as they are (they cannot be changed).
A change is written first and takes effect in memory only once written: a failed write
changes nothing. Whatever the file holds that is not a list of summaries makes the index
`unusable`: the store then makes it again from the archive.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .files import AtomicStorage
from .summaries import ID, Summary, in_and_out_of_bin, newest_first, summaries_of

TABLE, DOCUMENT = "summaries", "all"
OLD_TABLE = "games"  # schema version 6 and before: one document per summary


class Index:
    """The summaries of the finished games, by game id, in the order they were added."""

    def __init__(self, file: AtomicStorage) -> None:
        self.file = file
        self._summaries: dict[str, Summary] = {}
        self._sorted: dict[bool, list[Summary]] | None = None
        self._invalid = False
        self.old_layout = False  # read from a file written before schema version 7
        self._read()

    def _read(self) -> None:
        data = self.file.read() or {}
        document = data.get(TABLE, {}).get(DOCUMENT)
        if document is not None:
            found, valid = summaries_of(document.get("rows"))
        elif OLD_TABLE in data:
            self.old_layout = True
            found, valid = {}, True
            for game_id, value in data[OLD_TABLE].items():
                summary = Summary.from_dict(value)
                if summary is None:
                    valid = False
                else:
                    found[game_id] = _under(game_id, summary)
        else:
            found, valid = {}, not data  # an empty file is a new index; anything else is not
        self._summaries = found
        self._invalid = not valid

    @property
    def unusable(self) -> bool:
        """Whether the file could not be read whole (kept aside, or parts of it) or held
        something that is not a summary: the index is to be made again from the archive."""
        return bool(self.file.damaged) or self._invalid

    def mark_unusable(self) -> None:
        """Something written into the index was not a summary (an interrupted import's
        journal): the index is to be made again."""
        self._invalid = True

    # --- reading ------------------------------------------------------------------------------

    def ids(self) -> list[str]:
        return list(self._summaries)

    def has(self, game_id: str) -> bool:
        return game_id in self._summaries

    def get(self, game_id: str) -> Summary | None:
        return self._summaries.get(game_id)

    def __len__(self) -> int:
        return len(self._summaries)

    def newest_first(self, deleted: bool = False) -> list[Summary]:
        """The summaries of the games in the history (`deleted`: in the bin), newest first:
        sorted once per change of the index."""
        if self._sorted is None:
            kept, binned = in_and_out_of_bin(newest_first(self._summaries.values()))
            self._sorted = {False: kept, True: binned}
        return list(self._sorted[deleted])

    # --- changing (one write each) -------------------------------------------------------------

    def put(self, game_id: str, summary: Summary) -> None:
        self.put_many({game_id: summary})

    def put_many(self, summaries: Mapping[str, Summary]) -> None:
        if summaries:
            changed = {game_id: _under(game_id, s) for game_id, s in summaries.items()}
            self._save({**self._summaries, **changed})

    def remove_ids(self, game_ids: Iterable[str]) -> None:
        gone = {game_id for game_id in game_ids if game_id in self._summaries}
        if gone:
            self._save({k: v for k, v in self._summaries.items() if k not in gone})

    def replace_all(self, summaries: Mapping[str, Summary]) -> None:
        """Every summary at once (the index made again): usable from now on."""
        self._save({game_id: _under(game_id, s) for game_id, s in summaries.items()})
        self._invalid = False

    def save(self) -> None:
        """Write the summaries as they are (in today's layout)."""
        self._save(dict(self._summaries))

    def _save(self, summaries: dict[str, Summary]) -> None:
        rows = [summary.row for summary in summaries.values()]
        self.file.write({TABLE: {DOCUMENT: {"rows": rows}}})
        self._summaries = summaries
        self._sorted = None
        self.old_layout = False


def _under(game_id: str, summary: Summary) -> Summary:
    """`summary` kept under `game_id`: a summary names the game it is listed under (a record
    whose ``meta.id`` is not the id it is stored under is listed under the stored one)."""
    return summary if summary.id == game_id else Summary([game_id, *summary.row[ID + 1 :]])
