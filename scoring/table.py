"""The players at the table: names, seats (clockwise) and birth dates."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from . import errors as e
from .reader import Reader, child, show

MAX_NAME_LENGTH = 40
_YEAR = re.compile(r"^\d{4}$")


ZERO_WIDTH_JOINER = "\u200d"
# Characters that may sit between an emoji and the joiner (skin tones, variation selectors).
EMOJI_MODIFIERS = frozenset(chr(c) for c in [*range(0x1F3FB, 0x1F400), 0xFE0E, 0xFE0F])


def normal_name(name: str) -> str:
    """A name as it is stored: Unicode NFC, every run of whitespace one space, ends trimmed.

    >>> normal_name("  Zoe\u0308   Lena ")
    'Zoë Lena'
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """Two names are the same name when these are equal: their NFKC case-folded forms
    ("Zoë" in either spelling, "Ａｎｎａ" and "anna" are one name).

    >>> name_key("\uff21\uff4e\uff4e\uff41") == name_key(" anna ")
    True
    """
    folded = unicodedata.normalize("NFKC", normal_name(name)).casefold()
    return unicodedata.normalize("NFKC", folded)


def forbidden_character(name: str) -> tuple[int, str] | None:
    """(position, category) of the first character a name may not hold: a control character
    (Cc) or an invisible format character (Cf) — except a zero-width joiner inside an emoji
    sequence. None when there is none."""
    for index, character in enumerate(name):
        category = unicodedata.category(character)
        if category == "Cc":
            return index, category
        if category == "Cf" and not _joins_emoji(name, index):
            return index, category
    return None


def _joins_emoji(name: str, index: int) -> bool:
    """Whether the joiner at `index` sits between two emoji (modifiers skipped)."""
    if name[index] != ZERO_WIDTH_JOINER:
        return False
    before = name[:index].rstrip("".join(EMOJI_MODIFIERS))
    after = name[index + 1 :]
    return bool(before) and bool(after) and _is_emoji(before[-1]) and _is_emoji(after[0])


def _is_emoji(character: str) -> bool:
    return unicodedata.category(character) == "So" or ord(character) >= 0x1F000


def clean_name(name: str, fallback: str) -> str:
    """A stored name made valid: normalised, forbidden characters dropped, at most 40
    characters; `fallback` when nothing is left (for names stored before these rules)."""
    kept = "".join(
        character
        for index, character in enumerate(name)
        if unicodedata.category(character) != "Cc"
        and (unicodedata.category(character) != "Cf" or _joins_emoji(name, index))
    )
    return normal_name(kept)[:MAX_NAME_LENGTH].strip() or fallback


@dataclass(frozen=True)
class Birth:
    """A birth date, possibly only a year (then month and day are 0)."""

    year: int
    month: int = 0
    day: int = 0

    @property
    def day_of_birth(self) -> tuple[int, int, int]:
        """(year, month, day) for comparing ages. **Decision:** a bare year counts as 1 January.

        >>> Birth(1990).day_of_birth == Birth(1990, 1, 1).day_of_birth
        True
        """
        return (self.year, self.month or 1, self.day or 1)

    def to_json(self) -> str:
        if self.month == 0:
            return f"{self.year:04d}"
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True)
class Player:
    name: str
    born: Birth | None = None


@dataclass(frozen=True)
class Table:
    """Players in seating order, clockwise: the next entry sits to a player's left."""

    players: tuple[Player, ...]
    _by_key: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {name_key(p.name): p.name for p in self.players})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def __len__(self) -> int:
        return len(self.players)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def resolve(self, raw: str) -> str | None:
        """The player's name as seated, for a reference written in any case or spacing."""
        return self._by_key.get(name_key(raw))

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def left_of(self, name: str, steps: int = 1) -> str:
        """The player `steps` seats clockwise from `name`."""
        return self.names[(self.seat(name) + steps) % len(self.players)]

    def born(self, name: str) -> Birth | None:
        return self.players[self.seat(name)].born

    def opponents(self, name: str) -> tuple[str, ...]:
        return tuple(n for n in self.names if n != name)


def read_birth(reader: Reader, value: object, path: str) -> Birth | None:
    """An ISO date ``"1991-04-02"``, or a year as ``"1991"`` or ``1991``."""
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
        return Birth(value)
    if isinstance(value, str):
        if _YEAR.match(value):
            return Birth(int(value))
        try:
            date = dt.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            if len(value) == 10:
                return Birth(date.year, date.month, date.day)
    reader.add(e.BadDate(path, value=show(value)))
    return None


def read_players(reader: Reader, value: object, path: str = "players") -> Table | None:
    """The `players` list; None when any entry is unusable (names are needed everywhere)."""
    entries = reader.list(value, path)
    if entries is None:
        return None
    before = len(reader.errors)
    players: list[Player] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(entries):
        entry_path = child(path, index)
        fields = reader.obj(entry, entry_path, required=["name"], optional=["born"])
        if fields is None or "name" not in fields:
            continue
        name = read_name(reader, fields["name"], child(entry_path, "name"))
        born = None
        if "born" in fields:
            born = read_birth(reader, fields["born"], child(entry_path, "born"))
        if name is None:
            continue
        if name_key(name) in seen:
            reader.add(
                e.DuplicateName(child(entry_path, "name"), name=name, other=seen[name_key(name)])
            )
            continue
        seen[name_key(name)] = name
        players.append(Player(name, born))
    if len(reader.errors) > before:
        return None
    return Table(tuple(players))


def read_name(reader: Reader, value: object, path: str) -> str | None:
    """A player name (FORMAT.md): text without control or invisible characters, 1 to 40
    characters once normalised. Returns it normalised (`normal_name`)."""
    text = reader.text(value, path)
    if text is None:
        return None
    name = normal_name(text)
    if not name:
        reader.add(e.EmptyName(path))
        return None
    if len(name) > MAX_NAME_LENGTH:
        reader.add(e.NameTooLong(path, length=len(name), limit=MAX_NAME_LENGTH))
        return None
    forbidden = forbidden_character(name)
    if forbidden is not None:
        index, category = forbidden
        code = f"U+{ord(name[index]):04X}"
        error = e.ControlCharacter if category == "Cc" else e.InvisibleCharacter
        reader.add(error(path, position=index + 1, code=code))
        return None
    return name


def read_player_ref(reader: Reader, table: Table, value: object, path: str) -> str | None:
    """A reference to a seated player, by name."""
    text = reader.text(value, path)
    if text is None:
        return None
    name = table.resolve(text)
    if name is None:
        reader.add(e.UnknownPlayer(path, name=show(text)))
    return name


def read_player_map(
    reader: Reader, table: Table, value: object, path: str, require_all: bool
) -> dict[str, tuple[str, object]] | None:
    """An object keyed by player names: ``{name: (path of the entry, raw value)}``.

    Unknown and repeated names are errors; so are missing players when `require_all`.
    The result is in seating order.
    """
    raw = reader.mapping(value, path)
    if raw is None:
        return None
    found: dict[str, tuple[str, object]] = {}
    ok = True
    for key, entry in raw.items():
        entry_path = child(path, key)
        name = table.resolve(key)
        if name is None:
            reader.add(e.UnknownPlayer(entry_path, name=show(key)))
            ok = False
        elif name in found:
            reader.add(e.ListedTwice(entry_path, value=show(name)))
            ok = False
        else:
            found[name] = (entry_path, entry)
    if require_all:
        for name in table.names:
            if name not in found:
                reader.add(e.MissingPlayer(child(path, name), name=name))
                ok = False
    if not ok:
        return None
    return {name: found[name] for name in table.names if name in found}
