"""The players at the table: names, seats (clockwise) and birth dates."""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from . import errors as e
from .reader import Reader, child, show

MAX_NAME_LENGTH = 40
_YEAR = re.compile(r"^\d{4}$")


ZERO_WIDTH_JOINER = "\u200d"
VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")  # text and emoji presentation
# Characters that may sit between an emoji and the joiner or a flag's tags (skin tones,
# variation selectors).
EMOJI_MODIFIERS = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400)) | VARIATION_SELECTORS
TAG_SPEC = range(0xE0020, 0xE007F)  # the tag characters that spell a flag's region
CANCEL_TAG = "\U000e007f"  # ends an emoji tag sequence
# Where a name may hold invisible characters, as a refusal shows it: 👩‍💻 (woman, joiner,
# laptop) and the flag of Scotland, 🏴󠁧󠁢󠁳󠁣󠁴󠁿 (a black flag, the tags "gbsct", the cancel tag).
JOINED_EXAMPLE = "\U0001f469\u200d\U0001f4bb"
FLAG_EXAMPLE = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + CANCEL_TAG


def normal_name(name: str) -> str:
    """A name as it is stored: Unicode NFC, a variation selector only right after a character
    that takes one (`takes_variation_selector`), every run of whitespace one space, ends
    trimmed.

    >>> normal_name("  Zoe\u0308   Lena\ufe0f ")
    'Zoë Lena'
    >>> normal_name("\u2764\ufe0f Mo") == "\u2764\ufe0f Mo"  # ❤️: a heart takes one
    True
    """
    text = unicodedata.normalize("NFC", name)
    if not VARIATION_SELECTORS.isdisjoint(text):
        kept = "".join(c for i, c in enumerate(text) if not is_stray_selector(text, i))
        if kept != text:  # a selector dropped may let a mark compose with its letter
            text = unicodedata.normalize("NFC", kept)
    return " ".join(text.split())


def is_stray_selector(text: str, index: int) -> bool:
    """Whether the character at `index` is a variation selector (U+FE0E/U+FE0F) that follows
    no character taking one: dropped from a name."""
    return text[index] in VARIATION_SELECTORS and not (
        index > 0 and takes_variation_selector(text[index - 1])
    )


def takes_variation_selector(character: str) -> bool:
    """Whether `character` has a text and an emoji presentation that a variation selector
    chooses between (Unicode's emoji-variation-sequences.txt): ❤, ☺, ©, the digits, # and *.
    A face like 😀 or a letter has one presentation only.

    >>> [takes_variation_selector(c) for c in ("\u2764", "7", "\U0001f600", "A")]
    [True, True, False, False]
    """
    return character in _emoji_data()[1]


@functools.cache
def _emoji_data() -> tuple[frozenset[str], frozenset[str]]:
    """(the emoji characters, the characters of emoji-variation-sequences.txt), from Unicode's
    emoji data as the `emoji` package carries it (loaded on first use, once). The package
    lists every emoji (and marks ``variant`` those with variation sequences), but the digits,
    # and * only as keycaps ("7️⃣"): their bases are taken from those."""
    from emoji import EMOJI_DATA

    emoji = frozenset(e for e in EMOJI_DATA if len(e) == 1)
    keycaps = {e[0] for e in EMOJI_DATA if e.endswith("\ufe0f\u20e3")}
    variants = {e for e in emoji if EMOJI_DATA[e].get("variant")} | keycaps
    return emoji, frozenset(variants)


@functools.lru_cache(maxsize=4096)  # names repeat: every round and summary names them
def folded_name(name: str) -> str:
    """A name's NFKC case-folded form: "Zoë" in either spelling, "Ａｎｎａ" and "anna" are one.
    (Schema version 4 compared names by this alone; its migration still does.)

    >>> folded_name("\uff21\uff4e\uff4e\uff41") == folded_name(" anna ")
    True
    """
    folded = unicodedata.normalize("NFKC", normal_name(name)).casefold()
    return unicodedata.normalize("NFKC", folded)


# What draws nothing, so a reader cannot see it in a name: Unicode's default-ignorable code
# points (Default_Ignorable_Code_Point, DerivedCoreProperties.txt: the soft hyphen, the
# grapheme joiner, the Hangul fillers, Khmer's inherent vowels, Mongolian's selectors, the
# zero-width and direction marks, the variation selectors, the tags) and the Braille blank,
# which is drawn as an empty cell. (Python's unicodedata does not carry the property.)
DRAWS_NOTHING = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def draws_nothing(character: str) -> bool:
    code = ord(character)
    return any(low <= code <= high for low, high in DRAWS_NOTHING)


def as_seen(name: str) -> str:
    """`name` without what draws nothing (`DRAWS_NOTHING`), but what changes how an emoji is
    drawn: a joiner inside an emoji sequence and a flag's tags (`allowed_invisible`), and an
    emoji's presentation selector.

    >>> as_seen("Anna\u3164"), as_seen("A\u034fnna\ufe00"), as_seen("\u2764\ufe0f")
    ('Anna', 'Anna', '❤️')
    """
    if name.isascii():
        return name
    allowed = allowed_invisible(name)
    return "".join(
        character
        for index, character in enumerate(name)
        if not draws_nothing(character)
        or index in allowed
        or (character in VARIATION_SELECTORS and not is_stray_selector(name, index))
    )


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """Two names are the same name when these are equal (FORMAT.md): their NFKC case-folded
    forms, once each character that looks like a single character of another script is read
    as that character (`look_alikes`), and folded again; what draws nothing is left out
    (`as_seen`), as a reader sees the name.

    >>> name_key("\u0410nna") == name_key("anna")  # a Cyrillic А
    True
    >>> name_key("Ann\u00e1") == name_key("Anna"), name_key("Ame") == name_key("Arne")
    (False, False)
    >>> name_key("Anna\u3164") == name_key("Anna")  # a Hangul filler
    True
    """
    key = as_seen(folded_name(as_seen(name)))
    if key.isascii():
        return key  # no ASCII character is read as another (a test keeps it so)
    table = look_alikes()
    for _ in range(3):  # a character read as another may fold into one read again
        read = unicodedata.normalize("NFKC", key.translate(table).casefold())
        if read == key:
            break
        key = read
    return key


NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
LEFT_TO_RIGHT_MARK = "\u200e"


@functools.cache
def look_alikes() -> dict[int, str]:
    """Each character that Unicode's confusables (TR39, from the `confusable-homoglyphs`
    package) list as looking like exactly one single character of another script, by code
    point, mapped to the character it is read as: Cyrillic "а" and Greek "ο" are read as
    Latin "a" and "o".

    **Decision:** characters of the Common and Inherited scripts (digits, punctuation,
    combining marks) belong to no script of their own, so they are read as they are and no
    letter is read as one of them: "Tom1" and "Toml" are two names. Where two characters list
    only each other (Hiragana "へ" and Katakana "ヘ", Telugu and Kannada letters), both are read
    as the one with the smaller code point, so they still compare equal. A character that looks
    like several (Latin "l" like "1", "I", "|", ...) or like a sequence ("m" like "rn") is read
    as it is.

    Loaded on first use (the package reads about 1 MB of data), once.
    """
    confusable_data, script_of = _confusables()
    single: dict[str, str] = {}
    for character, entries in confusable_data.items():
        if len(character) != 1:
            continue
        looks_like = {entry["c"].replace(LEFT_TO_RIGHT_MARK, "") for entry in entries}
        if len(looks_like) != 1:
            continue
        (other,) = looks_like
        if len(other) != 1:
            continue
        scripts = {script_of(character), script_of(other)}
        if len(scripts) == 2 and not scripts & NEUTRAL_SCRIPTS:
            single[character] = other
    table: dict[int, str] = {}
    for character, other in single.items():
        if single.get(other) == character:  # they list only each other: one is read for both
            other = min(character, other)
        if other != character:
            table[ord(character)] = other
    return table


def _confusables() -> tuple[dict[str, list[dict[str, str]]], Callable[[str], str]]:
    """Unicode's confusables (the symmetric closure of confusables.txt: a character maps to
    the entries it looks like, each ``{"c": characters, "n": names}``) and the script of a
    character ("LATIN", "CYRILLIC", "COMMON", ...)."""
    from confusable_homoglyphs import (  # type: ignore[import-untyped]
        categories,
        confusables,
    )

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data

    def script_of(character: str) -> str:
        return str(categories.alias(character))

    return data, script_of


def look_alike_of(name: str, names: Sequence[str]) -> str | None:
    """The first of `names` that is the same name as `name` only because they look the same
    across scripts (their NFKC case-folded forms differ); None when there is none.

    >>> look_alike_of("\u0410nna", ["Ben", "Anna"])
    'Anna'
    >>> look_alike_of("ANNA", ["Anna"]) is None  # the same name, but not a look-alike
    True
    """
    key, folded = name_key(name), folded_name(name)
    return next(
        (other for other in names if name_key(other) == key and folded_name(other) != folded),
        None,
    )


def forbidden_character(name: str) -> tuple[int, str] | None:
    """(position, category) of the first character a name may not hold: a control character
    (Cc) or an invisible format character (Cf) — except a zero-width joiner inside an emoji
    sequence and the tag characters of a flag (`allowed_invisible`). None when there is none."""
    allowed = allowed_invisible(name)
    for index, character in enumerate(name):
        category = unicodedata.category(character)
        if category == "Cc" or (category == "Cf" and index not in allowed):
            return index, category
    return None


def allowed_invisible(name: str) -> frozenset[int]:
    """The positions of the invisible format characters (Cf) a name may hold: a zero-width
    joiner between two emoji (👩‍💻), and the tag characters of an emoji tag sequence — an
    emoji, one or more tags U+E0020–U+E007E, the cancel tag U+E007F — as in the flag of
    Scotland (🏴 and the tags "gbsct"). A tag anywhere else is not allowed: alone, after a
    letter, after a whole flag, or in a sequence without its cancel tag.

    >>> sorted(allowed_invisible("\U0001f3f4\U000e0067\U000e007f A\U000e0067\U000e007f"))
    [1, 2]
    """
    if name.isascii():
        return frozenset()
    allowed: set[int] = set()
    index = 0
    while index < len(name):
        end = _tag_sequence_end(name, index)
        if end is not None:
            allowed.update(range(index, end))
            index = end
            continue
        if _joins_emoji(name, index):
            allowed.add(index)
        index += 1
    return frozenset(allowed)


def _tag_sequence_end(name: str, index: int) -> int | None:
    """Where the emoji tag sequence's tags that start at `index` end (after the cancel tag);
    None when no such tags start there (the tags must follow an emoji: modifiers skipped)."""
    if index == 0 or ord(name[index]) not in TAG_SPEC:
        return None
    before = name[:index].rstrip("".join(EMOJI_MODIFIERS))
    if not before or before[-1] not in _emoji_data()[0]:
        return None
    end = index
    while end < len(name) and ord(name[end]) in TAG_SPEC:
        end += 1
    return end + 1 if end < len(name) and name[end] == CANCEL_TAG else None


def _joins_emoji(name: str, index: int) -> bool:
    """Whether the joiner at `index` sits between two emoji (modifiers skipped)."""
    if name[index] != ZERO_WIDTH_JOINER:
        return False
    before = name[:index].rstrip("".join(EMOJI_MODIFIERS))
    after = name[index + 1 :]
    return bool(before) and bool(after) and _is_emoji(before[-1]) and _is_emoji(after[0])


def _is_emoji(character: str) -> bool:
    """What a joiner may join (as names were checked before emoji flags were allowed, so that no
    stored name is refused now): a symbol (So), or a character from U+1F000 on — but no tag
    character."""
    category = unicodedata.category(character)
    return category == "So" or (ord(character) >= 0x1F000 and category != "Cf")


def clean_name(name: str, fallback: str) -> str:
    """A stored name made valid: normalised (`normal_name`), forbidden characters dropped, at
    most 40 characters; `fallback` when nothing is left (for names stored before these rules).
    Whitespace, a line break or a tab too, becomes a space as in `normal_name`; a name cut at
    40 characters loses what the cut leaves forbidden (a joiner at its end, a flag's tags
    without their cancel tag)."""
    text = normal_name(name)
    for _ in range(len(text) + 1):  # each pass drops characters, or ends the loop
        allowed = allowed_invisible(text)
        kept = "".join(
            character
            for index, character in enumerate(text)
            if unicodedata.category(character) not in ("Cc", "Cf") or index in allowed
        )
        cleaned = normal_name(kept)[:MAX_NAME_LENGTH].strip()
        if cleaned == text:
            break
        text = cleaned
    return text or fallback


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
    _by_folded: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Most references name a player exactly; then by their folded form; then by their
        # key. A table stored before look-alikes were one name may hold two players with one
        # key: each is found by their exact name or folded form, and the key finds neither.
        by_key: dict[str, str | None] = {}
        for player in self.players:
            key = name_key(player.name)
            by_key[key] = None if key in by_key else player.name
        keys = {key: name for key, name in by_key.items() if name is not None}
        object.__setattr__(self, "_by_key", keys)
        object.__setattr__(self, "_by_folded", {folded_name(p.name): p.name for p in self.players})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def __len__(self) -> int:
        return len(self.players)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def resolve(self, raw: str) -> str | None:
        """The player's name as seated, for a reference written in any case or spacing, or in
        characters that look the same in another script."""
        if raw in self.names:
            return raw
        return self._by_folded.get(folded_name(raw)) or self._by_key.get(name_key(raw))

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


def read_players(
    reader: Reader, value: object, path: str = "players", *, stored: bool = False
) -> Table | None:
    """The `players` list; None when any entry is unusable (names are needed everywhere).

    `stored`: the players of a game stored before names that look the same across scripts
    were one name: such names are kept, each player found by their own name.
    """
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
        if folded_name(name) in seen:
            other = seen[folded_name(name)]
            reader.add(e.DuplicateName(child(entry_path, "name"), name=name, other=other))
            continue
        look_alike = None if stored else look_alike_of(name, list(seen.values()))
        if look_alike is not None:
            reader.add(e.LookAlikeName(child(entry_path, "name"), name=name, other=look_alike))
            continue
        seen[folded_name(name)] = name
        players.append(Player(name, born))
    if len(reader.errors) > before:
        return None
    return Table(tuple(players))


def read_name(reader: Reader, value: object, path: str) -> str | None:
    """A player name (FORMAT.md): text without control or invisible characters (but a joiner
    in an emoji sequence and a flag's tags), 1 to 40 characters once normalised. Returns it
    normalised (`normal_name`: a stray variation selector dropped)."""
    text = reader.text(value, path)
    if text is None:
        return None
    name = normal_name(text)
    if not name:
        reader.add(e.EmptyName(path))
        return None
    if not as_seen(name).strip():
        reader.add(e.NameShowsNothing(path))
        return None
    if len(name) > MAX_NAME_LENGTH:
        reader.add(e.NameTooLong(path, length=len(name), limit=MAX_NAME_LENGTH))
        return None
    forbidden = forbidden_character(name)
    if forbidden is not None:
        index, category = forbidden
        code = f"U+{ord(name[index]):04X}"
        if category == "Cc":
            reader.add(e.ControlCharacter(path, position=index + 1, code=code))
        else:
            where = {"joined": JOINED_EXAMPLE, "flag": FLAG_EXAMPLE}
            reader.add(e.InvisibleCharacter(path, position=index + 1, code=code, **where))
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
