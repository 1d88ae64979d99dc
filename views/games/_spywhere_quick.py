"""Spywhere's quick entry: the end of the game as the table counts it (FORMAT.md's counts form)
— each player's cards of their own nationality on a number pad, how many opponents they
identified right with one tap, and who ended the game. `QUICK_ENDING` is its form of the round
entry (views/round_entry.py): the pad, Save and what is kept are the entry's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import flet as ft

import scoring
from scoring import GameRecord, Record, spywhere
from scoring.errors import N_
from scoring.reader import as_whole

from ..i18n import Translator
from ..numpad import DELETE, NEXT, pad_field, pad_row_key
from ..round_entry import Drawn, Entering, Form, Pad
from ..widgets import chip, choice_chips, drawn_as, note

PILE_RAN_OUT = "-"
CHIPS_BESIDE = 4  # up to 0–3 named right, the chips fit beside the player on a phone


@dataclass(frozen=True)
class Tally:
    """The end of a game in counts form being entered: what is typed for each player's own
    cards ("" while nothing is), how many opponents each identified, who ended the game (None:
    the draw pile ran out), and the player the number pad types for (a tap on a player
    chooses them; `fresh`: the next digit starts their number afresh; `moved`: the pad has
    just moved on to them by itself, see `pressed`)."""

    typed: dict[str, str]  # every player, seating order
    correct: dict[str, int]
    ended_by: str | None
    active: str | None
    fresh: bool = True
    moved: bool = False

    @classmethod
    def blank(cls, names: list[str]) -> Tally:
        return cls(dict.fromkeys(names, ""), dict.fromkeys(names, 0), None, names[0])

    @classmethod
    def of_round(cls, raw: object, names: list[str]) -> Tally:
        """A saved ending in counts form, to correct (every number there, no player chosen);
        blank for an ending entered with its cards."""
        fields = raw if isinstance(raw, dict) else {}
        counts = fields.get("counts")
        if not isinstance(counts, dict):
            return cls.blank(names)
        entries = {n: counts[n] if isinstance(counts.get(n), dict) else {} for n in names}
        typed = {
            n: str(own) if (own := as_whole(entries[n].get("own_cards"))) is not None else ""
            for n in names
        }
        correct = {n: as_whole(entries[n].get("correct")) or 0 for n in names}
        ended_by = fields.get("ended_by")
        return cls(typed, correct, ended_by if ended_by in names else None, None)

    @classmethod
    def from_json(cls, raw: object, names: list[str]) -> Tally:
        """A kept draft, leniently (what cannot be read starts blank)."""
        if not isinstance(raw, dict) or not isinstance(raw.get("typed"), dict):
            return cls.blank(names)
        typed = {n: str(raw["typed"].get(n, "")) for n in names}
        named = raw.get("correct")
        counts = named if isinstance(named, dict) else {}
        correct = {n: as_whole(counts.get(n)) or 0 for n in names}
        ended_by = raw.get("ended_by") if raw.get("ended_by") in names else None
        active = raw.get("active") if raw.get("active") in names else None
        fresh, moved = bool(raw.get("fresh", True)), bool(raw.get("moved", False))
        return cls(typed, correct, ended_by, active, fresh, moved)

    def to_json(self) -> Record:
        return {
            "typed": dict(self.typed),
            "correct": dict(self.correct),
            "ended_by": self.ended_by,
            "active": self.active,
            "fresh": self.fresh,
            "moved": self.moved,
        }

    def own_cards(self, name: str) -> int | None:
        return int(self.typed[name]) if self.typed[name].isdigit() else None

    def to_round(self) -> Record:
        """The ending as the record writes it; a player whose own cards are not typed yet has
        none written (the rules then name what is missing)."""
        counts: Record = {}
        for name in self.typed:
            own = self.own_cards(name)
            mine: Record = {"correct": self.correct[name]}
            if own is not None:
                mine = {"own_cards": own, **mine}
            counts[name] = mine
        return {"counts": counts, "ended_by": self.ended_by}

    def chosen(self, name: str) -> Tally:
        return replace(self, active=name, fresh=True, moved=False)

    def with_correct(self, name: str, count: int) -> Tally:
        return replace(self, correct={**self.correct, name: count}, moved=False)

    def with_ended_by(self, name: str | None) -> Tally:
        return replace(self, ended_by=name, moved=False)

    def pressed(self, key: str, limit: int) -> Tally:
        """A key of the number pad. The pad moves on to the next player by itself once no
        digit could follow (with at most 18 cards: a 2 or more, or two digits), else by Next.
        A Next right after it moved on by itself keeps it there (views/numpad.py)."""
        name = self.active
        if name is None:
            return self
        if key == NEXT:
            return replace(self, moved=False) if self.moved else self.advanced()
        if key == DELETE:
            text = self.typed[name][:-1]
            return replace(self, typed={**self.typed, name: text}, fresh=False, moved=False)
        text = ("" if self.fresh else self.typed[name]) + key
        if len(text) > 2 or int(text) > limit:  # no hand holds that many: start again
            text = key
        typed = replace(self, typed={**self.typed, name: text}, fresh=False, moved=False)
        number = int(text)
        may_grow = number > 0 and number * 10 <= limit
        return typed if may_grow else replace(typed.advanced(), moved=True)

    def advanced(self) -> Tally:
        """On to the next player whose own cards are not typed yet, in seating order."""
        names = list(self.typed)
        start = names.index(self.active) + 1 if self.active in names else 0
        following = names[start:] + names[:start]
        waiting = [n for n in following if n != self.active and not self.typed[n]]
        return replace(self, active=waiting[0] if waiting else None, fresh=True, moved=False)


TallyChange = Callable[[Callable[[Tally], Tally]], None]


def points_so_far(record: GameRecord, tally: Tally) -> dict[str, int]:
    """Each typed player's points as the rules count them (a player's score needs only their
    own counts and who ended the game; those not typed yet are left out)."""
    counts = {
        name: {"own_cards": tally.own_cards(name) or 0, "correct": tally.correct[name]}
        for name in tally.typed
    }
    try:
        result = scoring.replay(
            {**record, "rounds": [{"counts": counts, "ended_by": tally.ended_by}]}, stored=True
        )
    except scoring.InvalidRecord:
        return {}
    return {
        name: int(result.totals[name]) for name in tally.typed if tally.own_cards(name) is not None
    }


def tally_fields(entering: Entering[Tally]) -> Drawn:
    """The players' rows (own cards as typed, points so far, how many named right) and who
    ended the game; the number pad under them is the entry's."""
    t, tally, change = entering.t, entering.draft, entering.change
    names = list(tally.typed)
    most_correct = spywhere.passports_each(len(names)) * (len(names) - 1)
    points = points_so_far(entering.at.record, tally)
    controls: list[ft.Control] = [
        note(t("Type each player's own cards; tap how many opponents they named right.")),
    ]
    for name in names:
        controls.append(player_row(t, tally, name, points.get(name), most_correct, change))
    choices = [(PILE_RAN_OUT, t("The draw pile ran out"))] + [(name, name) for name in names]
    controls.append(
        choice_chips(
            t("Who ended the game?"),
            choices,
            tally.ended_by or PILE_RAN_OUT,
            lambda key: change(lambda c: c.with_ended_by(None if key == PILE_RAN_OUT else key)),
        )
    )
    return Drawn(controls)


def player_row(
    t: Translator,
    tally: Tally,
    name: str,
    points: int | None,
    most_correct: int,
    change: TallyChange,
) -> ft.Control:
    """A player: their own cards as typed (a tap chooses them for the pad), their points so
    far, and how many opponents they identified right (0 until tapped)."""
    active = tally.active == name
    typed = tally.typed[name]
    face = ft.Row(
        [
            ft.Column(
                [
                    ft.Text(
                        name,
                        weight=ft.FontWeight.BOLD,
                        size=16,
                        no_wrap=True,
                        overflow=ft.TextOverflow.ELLIPSIS,  # cut at a whole letter, "…"
                    ),
                    ft.Text(
                        (
                            t.plural("{count} point", "{count} points", points)
                            if points is not None
                            else ""
                        ),
                        size=12,
                    ),
                ],
                spacing=0,
                expand=True,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
            ft.Text(
                typed, size=26, weight=ft.FontWeight.BOLD, width=40, text_align=ft.TextAlign.END
            ),
        ],
        spacing=6,
    )
    label = t("{name}'s own cards: {typed}", name=name, typed=typed or t("nothing yet"))
    box = pad_field(face, label, active, lambda: change(lambda current: current.chosen(name)))
    named = tally.correct[name]
    counts: list[ft.Control] = [
        chip(
            label=ft.Text(
                str(count),
                semantics_label=t.plural(
                    "{name} named {count} right", "{name} named {count} right", count, name=name
                ),
            ),
            selected=count == named,
            on_click=lambda e, count=count: change(lambda c: c.with_correct(name, count)),
            key=drawn_as(name, "correct", count, count == named),
        )
        for count in range(most_correct + 1)
    ]
    if len(counts) <= CHIPS_BESIDE:
        return ft.Row([box, *counts], spacing=4, key=pad_row_key(name))
    return ft.Column([ft.Row([box]), ft.Row(counts, spacing=4)], spacing=4, key=pad_row_key(name))


def player_names(before: scoring.Replay) -> list[str]:
    return list(before.table.names)


def pressed(tally: Tally, key: str) -> Tally:
    """A key of the pad, up to the most own cards a hand can hold at this table."""
    return tally.pressed(key, spywhere.own_cards_limit(len(tally.typed)))


QUICK_ENDING = Form(
    blank=lambda before: Tally.blank(player_names(before)),
    of_round=lambda before, ending: Tally.of_round(ending, player_names(before)),
    read_kept=lambda before, entry: Tally.from_json(entry.get("tally"), player_names(before)),
    kept=lambda tally: {"tally": tally.to_json()},
    entered=lambda before, tally: tally.to_round(),
    fields=tally_fields,
    pad=Pad(
        next_label=N_("Next player"),
        press=lambda before, tally, key: pressed(tally, key),
        active=lambda tally: tally.active,
        rows=lambda tally: list(tally.typed),
        minus=lambda before, tally: False,  # nobody holds fewer than no cards
        complete=lambda tally: all(tally.typed.values()),
    ),
)
