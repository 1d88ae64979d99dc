"""Typed validation errors for game records.

Every problem found in a record is a `RecordError`: it knows *where* (`path`, e.g.
``rounds[2].cards.Ben.black_spies``) and *what* (a class with an English message template and
its parameters). The UI translates an error by looking up `template` in its catalogue (the
English text is the gettext msgid) and formatting it with `params`; parameters that are
`Term` instances are words that must be translated as well.

`str(error)` gives the English text with its path, as the CLI prints it:

>>> str(NumberTooHigh("rounds[2].cards.Ben.black_spies", value=7, limit=6,
...                   what=Term("black Spies in one deal")))
'rounds[2].cards.Ben.black_spies: 7 is more than 6 black Spies in one deal'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar


class Term(str):
    """A word or phrase inside an error parameter that is translated like a message."""

    __slots__ = ()


def N_(text: str) -> Term:
    """Mark `text` for translation extraction without translating it here (gettext idiom)."""
    return Term(text)


class Problem(Exception):
    """A problem a player is told about: an English `template` (the translation msgid) and its
    `params`. Record errors and storage errors share this so the UI translates them alike."""

    template: ClassVar[str] = "something went wrong"

    def __init__(self, **params: object) -> None:
        self.params: dict[str, object] = params
        super().__init__(self.message)

    @property
    def code(self) -> str:
        """A stable identifier of the kind of problem (the class name)."""
        return type(self).__name__

    @property
    def message(self) -> str:
        """The English message (a problem inside the params reads as its own message)."""
        params = {k: v.message if isinstance(v, Problem) else v for k, v in self.params.items()}
        return self.template.format(**params)


class RecordError(Problem, ValueError):
    """One problem in a game record, at one path."""

    template: ClassVar[str] = "is not valid"

    def __init__(self, path: str, **params: object) -> None:
        self.path = path
        super().__init__(**params)
        self.args = (f"{path}: {self.message}" if path else self.message,)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, RecordError)
            and (other.path, other.params) == (self.path, self.params)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.path))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.path!r}, {self.params!r})"


class InvalidRecord(ValueError):
    """Raised when a record has one or more problems; `errors` lists them in record order."""

    def __init__(self, errors: Iterable[RecordError]) -> None:
        self.errors: list[RecordError] = list(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


# --- shape and type ------------------------------------------------------------------------


class NotJSON(RecordError):
    template = "is not valid JSON ({detail})"


class NotAnObject(RecordError):
    template = "must be a JSON object {{...}}"


class NotAList(RecordError):
    template = "must be a list [...]"


class NotText(RecordError):
    template = "must be text"


class NotValidText(RecordError):
    template = "holds a character that is not valid text (a broken surrogate)"


class NotTrueOrFalse(RecordError):
    template = "must be true or false, not {value}"


class NotAWholeNumber(RecordError):
    template = "must be a whole number, not {value}"


class NotANumber(RecordError):
    template = "must be a number, not {value}"


class MissingKey(RecordError):
    template = "is missing"


class UnknownKey(RecordError):
    template = "is not a known key"


class UnknownKeyDidYouMean(RecordError):
    template = "is not a known key (did you mean {suggestion}?)"


class NotOneOf(RecordError):
    template = "{value} is not one of {choices}"


class NumberTooLow(RecordError):
    template = "{value} is less than {limit} {what}"


class NumberTooHigh(RecordError):
    template = "{value} is more than {limit} {what}"


class ListedTwice(RecordError):
    template = "{value} is listed twice"


class WrongLength(RecordError):
    template = "must hold {expected} {what}, not {actual}"


class BadDate(RecordError):
    template = "{value} is not a date (YYYY-MM-DD) or a year"


class BadDateTime(RecordError):
    template = "{value} is not a date and time (ISO 8601)"


# --- envelope ------------------------------------------------------------------------------


class NestedTooDeep(RecordError):
    template = "is nested deeper than {limit} levels: no game record is"


class TextTooLong(RecordError):
    template = "is {length} characters long; at most {limit} are allowed"


class TooManyRounds(RecordError):
    template = "holds {count} rounds; at most {limit} are allowed"


class UnsupportedFormat(RecordError):
    template = "{value} is not a format Debrief reads (expected {expected})"


class UnknownGame(RecordError):
    template = "{value} is not a game Debrief knows ({choices})"


class WrongPlayerCount(RecordError):
    template = "{game} is played by {low} to {high} players, not {count}"


class EmptyName(RecordError):
    template = "a player needs a name"


class NameShowsNothing(RecordError):
    template = "the name shows nothing: it is made only of characters that cannot be seen"


class NameTooLong(RecordError):
    template = "the name is {length} characters long; at most {limit} are allowed"


class ControlCharacter(RecordError):
    template = "character {position} of the name is a control character ({code})"


class InvisibleCharacter(RecordError):
    """`joined` and `flag` are examples of where such characters are allowed (an emoji
    sequence, a flag): parameters, so that a translation cannot lose their invisible parts."""

    template = (
        "character {position} of the name is an invisible character ({code}); a name may hold "
        "a zero-width joiner only inside an emoji sequence such as {joined}, and tag characters "
        "only inside a flag such as {flag}"
    )


class DuplicateName(RecordError):
    template = "{name} is the same name as player {other}"


class LookAlikeName(RecordError):
    template = "“{name}” looks the same as “{other}”"


class NameOfAnotherPlayer(RecordError):
    template = "{name} is already the name of another player ({other})"


class UnknownPlayer(RecordError):
    template = "{name} is not a player in this game"


class MissingPlayer(RecordError):
    template = "{name} is missing"


class SamePlayer(RecordError):
    template = "{name} cannot {action} themselves"


class GameAlreadyOver(RecordError):
    template = "the game was already over after round {after}; no round may follow"


# --- Black Spy -----------------------------------------------------------------------------


class DealDoesNotAddUp(RecordError):
    template = "the {what} add up to {total}, but a deal has {expected}"


class HighCardTwice(RecordError):
    template = "black {rank} was taken by {first} and {second}"


class HighCardMissing(RecordError):
    template = "nobody took the black {rank}"


class MoonChoiceRequired(RecordError):
    template = "{name} took all 16 black cards: choose give (60 for everyone else) or release"


class MoonChoiceNotAllowed(RecordError):
    template = "is only asked when one player takes all 16 black cards with Capture or Release"


class BothForms(RecordError):
    template = "holds both {one} and {other}: a round is entered one way or the other"


class PilesDoNotAddUp(RecordError):
    template = "the piles add up to {total}, but a deal has {expected}"


class PilesNotPossible(RecordError):
    template = "no split of the deck's cards gives these piles ({piles})"


class MoonTakerRequired(RecordError):
    template = "a pile of 80 is all 16 black cards: mark {name}'s moon"


class MoonPileNotPossible(RecordError):
    template = "{name} took all 16 black cards: their pile is {allowed}, not {points}"


class PileBesideMoonNotPossible(RecordError):
    template = "{taker} took all 16 black cards: {name}'s pile is {allowed}, not {points}"


# --- Kompromat -----------------------------------------------------------------------------


class NotAnEquipmentCard(RecordError):
    template = "{value} is not an equipment card (0.5, 1/11, 2 to 10)"


class DeckExceeded(RecordError):
    template = "{name} played {count} × {card} this round, but the deck has only {limit}"


class MissionDeckExceeded(RecordError):
    template = "this would be mission card number {count} of {what}; the deck has only {limit}"


class RoundEndedEarly(RecordError):
    template = (
        "holds {count} of {expected} missions, but nobody reached 9 tokens on mission {count}: "
        "only a 9-token loss ends a round early"
    )


class NotPerfect(RecordError):
    template = "{name} has {total} on mission {mission} of round {round}, not exactly 21"


class NoCardsWhileCardsLeft(RecordError):
    template = (
        "{name} played no cards on mission {mission} of round {round} but still had {count} "
        "cards: every mission gets cards until the deck runs out"
    )


class CardAfterBust(RecordError):
    template = (
        "{name} was already above 21 on mission {mission} of round {round} ({total}): "
        "no card may follow"
    )


class ItemNotWon(RecordError):
    template = "{name} has not won the {item} before mission {mission} of round {round}"


class ItemNotWonHere(RecordError):
    template = "{name} does not win the {item} on mission {mission} of round {round}"


class ItemNotYetUsable(RecordError):
    template = (
        "{name} wins the {item} on mission {mission} of round {round}: it can be used from the "
        "next mission on (only Chloroform and Balaclava act at once)"
    )


class ItemAlreadyUsed(RecordError):
    template = "{name} has already used the {item}"


class ItemNotUsedYet(RecordError):
    template = "the USB stick can only copy an item used earlier in this game; {item} was not"


class BustAndPerfect(RecordError):
    template = "{name} cannot be both above 21 and at exactly 21"


class NoCardsButCounted(RecordError):
    template = "{name} played no cards, so is neither above 21 nor at exactly 21"


class WinnerAboveLimit(RecordError):
    template = "{name} is above 21 and cannot win the mission"


class WinnerWithoutCards(RecordError):
    template = "{name} played no cards and cannot win the mission"


class PerfectWins(RecordError):
    template = "{name} is the only one at exactly 21, so wins the mission"


class OtherOfBustWins(RecordError):
    template = "{bust} is above 21, so {name} wins the mission"


class ReturnWithoutPerfect(RecordError):
    template = "{name} is not at exactly 21 on mission {mission} of round {round}"


class NoCardsOnMission(RecordError):
    template = "{name} played no cards on mission {mission} of round {round}"


class ChloroformWithoutEffect(RecordError):
    template = (
        "{name} does not win counter-intelligence tokens on mission {mission} of round {round}"
    )


# --- SPY -----------------------------------------------------------------------------------


class PlayerOut(RecordError):
    template = "{name} is already out of the game"


class NoLitBomb(RecordError):
    template = "{name}'s base has no lit bomb"


class NoUnlitBomb(RecordError):
    template = "all {limit} bombs in {name}'s base are already lit"


# --- Spywhere ------------------------------------------------------------------------------


class RemovedNationalityRequired(RecordError):
    template = "with 3 or 4 players one nationality is removed: name it"


class RemovedNationalityNotAllowed(RecordError):
    template = "a nationality is only removed with 3 or 4 players"


class NationalityRemoved(RecordError):
    template = "{value} was removed from this game"


class PassportTwice(RecordError):
    template = "{value} is also {other}'s passport"


class NationalityNamedTwice(RecordError):
    template = (
        "{name} already named {value} against {other}: each player has one identification card "
        "per nationality"
    )


class EndedWithoutAllAttempts(RecordError):
    template = "{name} did not make an attempt on every opponent, so did not end the game"
