"""Spywhere: the end of the game, entered quick (the table's counts on the number pad) or with
the cards laid open (a wizard: passports, cards, identifications, who ended it), and the result
with how each score was made. The entry is views/round_entry.py's; the game has one round."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import flet as ft

import scoring
from scoring import JSON, Record, spywhere
from scoring.errors import N_

from .. import buttons
from ..frame import asked_first, correction_banner, game_over_panel, screen
from ..i18n import Translator
from ..round_entry import Drawn, Entering, Form, RoundEntryOf, use_round_entry
from ..widgets import (
    choice_chips,
    drawn_as,
    heading,
    info_box,
    note,
    stepper,
)
from . import AtTable, GameView, NewGameForm
from ._spywhere_quick import QUICK_ENDING

STEPS = (
    N_("Passports"),
    N_("Cards of their own nationality"),
    N_("Identifications"),
    N_("Who ended the game?"),
)
NATIONALITY_NAMES = {
    "italy": N_("Italy"),
    "england": N_("England"),
    "france": N_("France"),
    "spain": N_("Spain"),
    "belgium": N_("Belgium"),
    "germany": N_("Germany"),
}
NO_ATTEMPT = "-"
PILE_RAN_OUT = "-"
DEFAULT_REMOVED = "belgium"
THE_ENDING = 0  # the one round of a Spywhere game


@ft.component
def SpywhereScreen(at: AtTable, key: str | None = None) -> ft.View:
    """The entry while the end is not saved (it opens by itself) or being corrected; else the
    results. `at.fix_round` (0): the game was stored before a rule it breaks; the entry opens
    on it."""
    entry = use_round_entry(at, ENTRY)
    controls: list[ft.Control] = [*correction_banner(at.t, at.fix_round)]
    if entry.control is not None and not at.read_only:
        controls.append(entry.control)
        return screen(at, spywhere.RULES.title, controls, entering=True, fills=entry.fills)
    controls += results_so_far(at)
    if at.rounds and not at.read_only:  # a guest sees the results only
        controls.append(
            buttons.OutlinedButton(
                at.t("Correct the end of the game"),
                icon=ft.Icons.EDIT,
                height=48,
                on_click=asked_first(at, lambda: entry.open_round(THE_ENDING)),
            )
        )
    return screen(at, spywhere.RULES.title, controls)


def results_so_far(at: AtTable) -> list[ft.Control]:
    """The results, or (a guest; at the table, the moment before the entry opens by itself)
    that the end is being entered."""
    if at.rounds:
        return results(at)
    return [note(at.t("The table is entering the end of the game."))]


def results(at: AtTable) -> list[ft.Control]:
    t, result = at.t, at.result
    game = scoring.state_as(result, spywhere.State)
    ending = game.ending
    rows: list[ft.Control] = [game_over_panel(at), heading(t("Scores"))]
    if ending is None:
        return rows
    for name in result.ranking:
        parts = spywhere.score_parts(ending, name)
        how = how_scored(t, parts)
        title = name
        if isinstance(ending, spywhere.Ending):  # the counts form names no passport
            passports = ", ".join(t(NATIONALITY_NAMES[n]) for n in ending.passports[name])
            title = f"{name} · {passports}"
        rows.append(
            ft.ListTile(
                title=ft.Text(title, weight=ft.FontWeight.BOLD),
                subtitle=ft.Text(how),
                trailing=ft.Text(
                    t.number(parts.total),
                    size=22,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=t.plural(
                        "{name}: {count} point", "{name}: {count} points", parts.total, name=name
                    ),
                ),
            )
        )
    return rows


# --- the end laid open, step by step -----------------------------------------------------------


@dataclass(frozen=True)
class LaidOpen:
    """The end of the game entered with the cards laid open: the wizard's step (kept with the
    draft, so a reopened entry is where it was left) and the ending so far."""

    step: int
    ending: spywhere.Ending

    def changed(self, update: Callable[[spywhere.Ending], spywhere.Ending]) -> LaidOpen:
        return replace(self, ending=update(self.ending))

    def at_step(self, step: int) -> LaidOpen:
        return replace(self, step=step)


def blank_laid_open(before: scoring.Replay) -> LaidOpen:
    return LaidOpen(0, spywhere.Ending.blank(before.table))


def saved_laid_open(before: scoring.Replay, ending: JSON) -> LaidOpen:
    """A saved ending in the wizard: as laid open, or (counted on the pad) with what both
    forms hold, each player's own cards and who ended the game."""
    laid = spywhere.Ending.from_json(ending, before.table)
    counts = ending.get("counts") if isinstance(ending, dict) else None
    for name, counted in counts.items() if isinstance(counts, dict) else []:
        own = counted.get("own_cards") if isinstance(counted, dict) else None
        if name in laid.own_cards and isinstance(own, int) and not isinstance(own, bool):
            laid = replace(laid, own_cards={**laid.own_cards, name: own})
    return LaidOpen(0, laid)


def kept_laid_open(before: scoring.Replay, entry: Record) -> LaidOpen:
    """This device's draft ("step", "ending"), on a step the wizard has."""
    step = min(max(scoring.as_int(entry["step"]), 0), len(STEPS) - 1)
    return LaidOpen(step, spywhere.Ending.from_json(entry["ending"], before.table))


def wizard_fields(entering: Entering[LaidOpen]) -> Drawn:
    return Wizard(entering).drawn()


class Wizard:
    """The end of the game, step by step: passports, own cards, identifications, the end;
    Back and Next between the steps, Save on the last."""

    def __init__(self, entering: Entering[LaidOpen]) -> None:
        self.entering, self.t = entering, entering.t
        before = entering.before
        self.names = list(before.table.names)
        options = scoring.options_as(before, spywhere.Options)
        self.nationalities = list(options.in_play)
        self.each = spywhere.passports_each(len(self.names))
        self.draft, self.step = entering.draft.ending, entering.draft.step
        # What the engine offers on each chip (the guesses a player may still make, ...).
        state = scoring.state_as(before, spywhere.State)
        self.preview = spywhere.RULES.preview(state, self.draft.to_json())

    def change(
        self, update: Callable[[spywhere.Ending], spywhere.Ending], part: str = "ended_by"
    ) -> None:
        """Apply `update` to `part` of the draft as it is when the change arrives (and from
        now on the errors about that part are shown)."""
        self.entering.touch(part)
        self.entering.change(lambda current: current.changed(update))

    def go_to(self, step: int) -> None:
        self.entering.change(lambda current: current.at_step(step))

    def choices(
        self, no_choice: str | None, offered: tuple[str, ...] | None = None
    ) -> list[tuple[str, str]]:
        """The nationalities to pick from: those `offered` (all of them when None)."""
        t = self.t
        kept = [n for n in self.nationalities if offered is None or n in offered]
        options = [(n, t(NATIONALITY_NAMES[n])) for n in kept]
        if no_choice is not None:
            options.insert(0, (NO_ATTEMPT, no_choice))
        return options

    def passport_picker(self, name: str, slot: int) -> Callable[[str], None]:
        return lambda key: self.change(
            lambda d: d.with_passport(name, slot, key), f"passports.{name}"
        )

    def own_cards_stepper(self, name: str, limit: int) -> Callable[[int], None]:
        return lambda step: self.change(
            lambda d: d.with_own_cards(name, step, limit), f"own_cards.{name}"
        )

    def guess_picker(self, guesser: str, opponent: str, slot: int) -> Callable[[str], None]:
        def pick(key: str) -> None:
            guess = None if key == NO_ATTEMPT else key
            self.change(
                lambda d: d.with_guess(guesser, opponent, slot, guess),
                f"identifications.{guesser}",
            )

        return pick

    def drawn(self) -> Drawn:
        """The step under its heading, its problems above Back and Next (those of another
        step are said there; on the last, all). The same skeleton on every step, the step's
        content under its own key: a redraw never reshuffles the buttons (a tap on a
        reshuffled button was sometimes lost)."""
        t, step = self.t, self.step
        body = [self.passports, self.own_cards, self.identifications, self.ending][step]()
        last = step == len(STEPS) - 1
        elsewhere = [e for e in self.entering.spoken if not (last or _belongs_to(e, step))]
        return Drawn(
            [
                ft.Column(
                    body,
                    key=f"step-{step}",
                    spacing=10,
                    horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                )
            ],
            said=elsewhere,
            actions=[ft.Row(self.navigation(), key="nav")],
            title=t(
                "End of the game · step {step} of 4: {title}", step=step + 1, title=t(STEPS[step])
            ),
        )

    def passports(self) -> list[ft.Control]:
        t = self.t
        body: list[ft.Control] = [note(t("Everyone shows their passport."))]
        for name in self.names:
            held = self.draft.passports.get(name, ())
            for slot in range(self.each):
                body.append(
                    choice_chips(
                        t("{name}'s passport", name=name)
                        if self.each == 1
                        else t("{name}'s passport {number}", name=name, number=slot + 1),
                        self.choices(None),
                        held[slot] if slot < len(held) else None,
                        self.passport_picker(name, slot),
                    )
                )
        return body

    def own_cards(self) -> list[ft.Control]:
        t = self.t
        body: list[ft.Control] = [note(t("Count the cards of your own nationality in your hand."))]
        limit = spywhere.own_cards_limit(len(self.names))
        for name in self.names:
            body.append(
                stepper(
                    t("{name}: own cards", name=name),
                    self.draft.own_cards.get(name, 0),
                    0,
                    limit,
                    self.own_cards_stepper(name, limit),
                    t,
                )
            )
        return body

    def identifications(self) -> list[ft.Control]:
        t = self.t
        body: list[ft.Control] = [
            note(t("Who tried to identify whom as what? Leave out attempts not made."))
        ]
        for guesser in self.names:
            body.append(ft.Text(t("{name} guessed", name=guesser), weight=ft.FontWeight.BOLD))
            made = self.draft.identifications.get(guesser, {})
            for opponent in self.names:
                if opponent == guesser:
                    continue
                guesses = made.get(opponent, ())
                for slot in range(self.each):
                    body.append(
                        choice_chips(
                            t("{guesser} on {opponent}", guesser=guesser, opponent=opponent),
                            self.choices(
                                t("no attempt"),
                                self.preview.guess_choices[guesser][opponent][slot],
                            ),
                            guesses[slot] if slot < len(guesses) else NO_ATTEMPT,
                            self.guess_picker(guesser, opponent, slot),
                        )
                    )
        return body

    def ending(self) -> list[ft.Control]:
        t, draft = self.t, self.draft
        body: list[ft.Control] = [
            note(
                t(
                    "The game ends when the draw pile runs out, or when a player has tried "
                    "to identify every opponent ({points} points).",
                    points=spywhere.ENDING_BONUS,
                )
            ),
            ft.RadioGroup(
                value=draft.ended_by or PILE_RAN_OUT,
                key=drawn_as("ended by", draft.ended_by),
                on_change=lambda e: self.change(
                    lambda d: d.with_ended_by(
                        None if e.control.value == PILE_RAN_OUT else e.control.value
                    )
                ),
                content=ft.Column(
                    [
                        ft.Radio(value=PILE_RAN_OUT, label=t("The draw pile ran out")),
                        *[
                            ft.Radio(value=n, label=t("{name} tried everyone", name=n))
                            for n in self.names
                        ],
                    ]
                ),
            ),
        ]
        if not self.entering.errors:
            ending = {**self.entering.at.record, "rounds": [draft.to_json()]}
            preview = scoring.replay(ending, stored=True)
            body.append(
                info_box(
                    [
                        ft.Text(t("{name}: {points}", name=n, points=t.number(preview.totals[n])))
                        for n in self.names
                    ]
                )
            )
        return body

    def navigation(self) -> list[ft.Control]:
        t, step = self.t, self.step
        nav: list[ft.Control] = [
            buttons.OutlinedButton(
                t("Back"),
                height=48,
                key="back",
                disabled=step == 0,
                on_click=lambda: self.go_to(step - 1),
            ),
        ]
        if step < len(STEPS) - 1:
            nav.append(
                buttons.FilledButton(
                    t("Next"), height=48, key="next", on_click=lambda: self.go_to(step + 1)
                )
            )
        else:
            nav.append(
                buttons.FilledButton(
                    t("Save scores"),
                    icon=ft.Icons.SAVE,
                    height=48,
                    key="save",
                    on_click=lambda: self.entering.save(),
                )
            )
        return nav


def _belongs_to(error: scoring.RecordError, step: int) -> bool:
    key = ("passports", "own_cards", "identifications", "ended_by")[step]
    return f".{key}" in error.path


def was_counted(ending: JSON) -> bool:
    """Whether a saved ending was entered as the table counts it (quick entry)."""
    return isinstance(ending, dict) and "counts" in ending


ENTRY = RoundEntryOf(
    quick=QUICK_ENDING,
    cards=Form(
        blank=blank_laid_open,
        of_round=saved_laid_open,
        read_kept=kept_laid_open,
        kept=lambda laid: {"step": laid.step, "ending": laid.ending.to_json()},
        entered=lambda before, laid: laid.ending.to_json(),
        fields=wizard_fields,
    ),
    was_quick=was_counted,
    title=lambda t, index, correcting: t("End of the game"),
    save_label=N_("Save scores"),
    saved=lambda t, after, index: t("Scores saved."),
    opens_by_itself=True,
)


# --- a new game's options ----------------------------------------------------------------------


def options_of(seats: tuple[str, ...], options: scoring.Record) -> scoring.Record:
    removed = str(options.get("removed_nationality") or DEFAULT_REMOVED)
    return spywhere.RULES.default_options(seats, removed)


def options_form(form: NewGameForm) -> list[ft.Control]:
    """With 3 or 4 players the table removes one nationality."""
    t = form.t
    if not spywhere.removes_a_nationality(len(form.seats)):
        return []
    removed = str(form.options.get("removed_nationality", DEFAULT_REMOVED))
    return [
        heading(t("Nationality left out")),
        note(t("With 3 or 4 players the table removes one nationality.")),
        choice_chips(
            t("Removed nationality"),
            [(k, t(v)) for k, v in NATIONALITY_NAMES.items()],
            removed,
            lambda key: form.set_options(lambda current: {**current, "removed_nationality": key}),
        ),
    ]


def how_scored(t: Translator, parts: spywhere.ScoreParts) -> str:
    """ "4 cards × (1 + 2 correct) + 3 for ending the game"."""
    how = t.plural(
        "{count} card × (1 + {correct} correct)",
        "{count} cards × (1 + {correct} correct)",
        parts.own_cards,
        correct=parts.correct,
    )
    if parts.ending_bonus:
        how += f" + {parts.ending_bonus} " + t("for ending the game")
    return how


def made_of(t: Translator, result: scoring.Replay) -> dict[str, str]:
    """The nationalities each player identified rightly."""
    return {
        name: t.plural(
            "{count} correct identification", "{count} correct identifications", facts["correct"]
        )
        for name, facts in result.player_facts.items()
    }


def options_said(t: Translator, seats: tuple[str, ...], options: scoring.Record) -> str:
    """The nationality left out (3 or 4 players)."""
    removed = options.get("removed_nationality")
    if not isinstance(removed, str) or removed not in NATIONALITY_NAMES:
        return ""
    return t("without {nationality}", nationality=t(NATIONALITY_NAMES[removed]))


VIEW = GameView(
    rules=spywhere.RULES,
    icon=ft.Icons.TRAVEL_EXPLORE,
    screen=SpywhereScreen,
    options_form=options_form,
    options_of=options_of,
    facts={"correct": N_("Correct identifications")},
    round_name=N_("the scores"),
    made_of=made_of,
    options_said=options_said,
)
