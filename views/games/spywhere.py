"""Spywhere: the end-of-game wizard (passports, cards, identifications, who ended it) and the
result with how each score was made."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import flet as ft

import scoring
from scoring import spywhere
from scoring.errors import N_

from ..entry import (
    NEW,
    form_switch,
    kept_entry,
    restored,
    save_checked,
    spoken_to,
    subject,
    use_kept,
    use_refusal,
)
from ..frame import asked_first, correction_banner, game_over_panel, screen
from ..hooks import Setter, use_made, use_value
from ..numpad import PinnedPad
from ..state import DETAILED, QUICK
from ..widgets import (
    choice_chips,
    drawn_as,
    error_box,
    heading,
    info_box,
    note,
    problem_line,
    stepper,
)
from . import AtTable, GameView, NewGameForm
from ._spywhere_quick import Tally, quick_ending

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
NO_STEP: int | None = None  # the results are shown, not the wizard
DEFAULT_REMOVED = "belgium"


@ft.component
def SpywhereScreen(at: AtTable, key: str | None = None) -> ft.View:
    """`at.fix_round` (0): the game was stored before a rule it breaks; the wizard opens on it."""
    state, t = at.state, at.t
    table = at.result.table
    names = list(table.names)
    kept, _ = use_made(  # this device's draft, read from storage on the first drawing only
        lambda: restored(
            kept_entry(at),
            lambda entry: (
                scoring.as_int(entry["step"]),
                spywhere.Ending.from_json(entry["ending"], table),
                str(entry.get("form", DETAILED)),  # drafts before quick entry: the wizard's
                Tally.from_json(entry.get("tally"), names),
            ),
        )
    )
    opening_step = 0 if at.fix_round is not None or not at.rounds else NO_STEP
    step, set_step = use_value(kept[1][0] if kept else opening_step)
    draft, set_draft = use_made(
        lambda: (
            kept[1][1]
            if kept
            else spywhere.Ending.from_json(at.rounds[0], table)
            if at.rounds
            else spywhere.Ending.blank(table)
        )
    )
    form, set_form = use_value(kept[1][2] if kept else opening_form(at))
    tally, set_tally = use_made(
        lambda: kept[1][3] if kept else Tally.of_round(at.rounds[0] if at.rounds else {}, names)
    )
    editing = 0 if at.rounds else None
    untouched: scoring.Record = {
        "step": 0,
        "ending": spywhere.Ending.blank(table).to_json(),
        "form": form,
        "tally": Tally.blank(names).to_json(),
    }
    use_kept(
        at,
        None if step is None else NEW if editing is None else editing,
        {"step": step, "ending": draft.to_json(), "form": form, "tally": tally.to_json()},
        untouched,
    )
    empty = {**at.record, "rounds": []}
    entered = tally.to_round() if form == QUICK else draft.to_json()
    errors = scoring.check_round(empty, entered) if step is not None else []

    touched, set_touched = use_value(frozenset[str]())
    tried, set_tried = use_value(False)  # Save was tapped: every error speaks
    problems, report = use_refusal(entered)

    def save() -> None:
        store = partial(state.save_round, at.game_id, editing, entered)
        if save_checked(at, errors, set_tried, store, report) is None:
            return
        if at.fix_round is None:  # a stored game's correction gets a fresh screen (GameScreen)
            set_step(NO_STEP)
        state.say(t("Scores saved."))

    controls: list[ft.Control] = [*correction_banner(t, at.fix_round)]
    if at.read_only:  # a guest: the end as entered so far, or that it is being entered
        if at.rounds:
            controls += results(at)
        else:
            controls.append(note(t("The table is entering the end of the game.")))
        return screen(at, spywhere.RULES.title, controls)
    if step is None:
        controls += results(at)
        controls.append(
            ft.OutlinedButton(
                t("Correct the end of the game"),
                icon=ft.Icons.EDIT,
                height=48,
                on_click=asked_first(at, lambda: set_step(0)),
            )
        )
    else:
        title = heading(t("End of the game")) if form == QUICK else ft.Container()
        title_row = ft.Row(
            [title, form_switch(at, form, set_form)],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )
        if form == QUICK:
            everyone_typed = tally.active is None and all(tally.typed.values())
            problem = [subject(at, e) for e in errors[:1]] if tried or everyone_typed else []
            said = problems or problem  # a refusal says it all: the first problem, how many
            line = problem_line(said) if said else None
            rows, pad = quick_ending(t, at.record, tally, set_tally, save, line)
            rows_and_title = [title_row, *rows]
            controls.append(PinnedPad(rows_and_title, pad, list(tally.typed), tally.active))
            return screen(at, spywhere.RULES.title, controls, entering=True, fills=True)
        controls.append(title_row)
        shown = spoken_to(errors, touched, tried)
        wizard = Wizard(
            at, draft, set_draft, step, set_step, (errors, shown, problems), save, set_touched
        )
        controls += wizard.controls()
    return screen(at, spywhere.RULES.title, controls, entering=step is not None)


def opening_form(at: AtTable) -> str:
    """A saved ending opens in the form it was entered in; a new one as the table last chose."""
    if at.rounds:
        return QUICK if "counts" in scoring.as_object(at.rounds[0]) else DETAILED
    return at.state.entry_mode(at.game_id, at.record["game"])


def results(at: AtTable) -> list[ft.Control]:
    t, result = at.t, at.result
    game = scoring.state_as(result, spywhere.State)
    ending = game.ending
    rows: list[ft.Control] = [game_over_panel(at), heading(t("Scores"))]
    if ending is None:
        return rows
    for name in result.ranking:
        parts = spywhere.score_parts(ending, name)
        how = t(
            "{cards} cards × (1 + {correct} correct)", cards=parts.own_cards, correct=parts.correct
        )
        if parts.ending_bonus:
            how += f" + {parts.ending_bonus} " + t("for ending the game")
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
                    semantics_label=t(
                        "{name}: {points} points", name=name, points=t.number(parts.total)
                    ),
                ),
            )
        )
    return rows


class Wizard:
    """The end of the game, step by step: passports, own cards, identifications, the end."""

    def __init__(
        self,
        at: AtTable,
        draft: spywhere.Ending,
        set_draft: Setter[spywhere.Ending],
        step: int,
        set_step: Setter[int | None],
        # (all errors, those shown, what a Save was refused for)
        errors: tuple[list[scoring.RecordError], list[scoring.RecordError], list[str]],
        save: Callable[[], None],
        set_touched: Setter[frozenset[str]],
    ) -> None:
        self.at, self.t = at, at.t
        self.names = list(at.result.table.names)
        options = scoring.options_as(at.result, spywhere.Options)
        self.nationalities = list(options.in_play)
        self.each = spywhere.passports_each(len(self.names))
        self.draft, self.set_draft = draft, set_draft
        self.step, self.set_step = step, set_step
        (self.errors, self.shown, self.refused), self.save = errors, save
        self.set_touched = set_touched

    def change(
        self, update: Callable[[spywhere.Ending], spywhere.Ending], part: str = "ended_by"
    ) -> None:
        """Apply `update` to `part` of the draft as it is when the change arrives (and from
        now on the errors about that part are shown)."""
        self.set_touched(lambda parts: parts | {part})
        self.set_draft(update)

    def choices(self, no_choice: str | None, laid: set[str] | None = None) -> list[tuple[str, str]]:
        """The nationalities to pick from, without those `laid` elsewhere already."""
        t = self.t
        kept = [n for n in self.nationalities if n not in (laid or set())]
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

    def controls(self) -> list[ft.Control]:
        t, step = self.t, self.step
        head = heading(
            t("End of the game · step {step} of 4: {title}", step=step + 1, title=t(STEPS[step]))
        )
        body = [self.passports, self.own_cards, self.identifications, self.ending][step]()
        last = step == len(STEPS) - 1
        shown = [subject(self.at, e) for e in self.shown if last or _belongs_to(e, step)]
        # The same skeleton on every step, the step's content under its own key: a redraw never
        # reshuffles the buttons (a tap on a reshuffled button was sometimes lost).
        return [
            head,
            ft.Column(
                body,
                key=f"step-{step}",
                spacing=10,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            ),
            ft.Column([error_box([*self.refused, *shown])], key="messages"),
            ft.Row(self.navigation(), key="nav"),
        ]

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
                                t("no attempt"), spywhere.laid_elsewhere(made, opponent, slot)
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
        if not self.errors:
            ending = {**self.at.record, "rounds": [draft.to_json()]}
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
            ft.OutlinedButton(
                t("Back"),
                height=48,
                key="back",
                disabled=step == 0,
                on_click=lambda: self.set_step(step - 1),
            ),
        ]
        if step < len(STEPS) - 1:
            nav.append(
                ft.FilledButton(
                    t("Next"), height=48, key="next", on_click=lambda: self.set_step(step + 1)
                )
            )
        else:
            nav.append(
                ft.FilledButton(
                    t("Save scores"),
                    icon=ft.Icons.SAVE,
                    height=48,
                    key="save",
                    on_click=lambda: self.save(),
                )
            )
        return nav


def _belongs_to(error: scoring.RecordError, step: int) -> bool:
    key = ("passports", "own_cards", "identifications", "ended_by")[step]
    return f".{key}" in error.path


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


VIEW = GameView(
    rules=spywhere.RULES,
    icon=ft.Icons.TRAVEL_EXPLORE,
    screen=SpywhereScreen,
    options_form=options_form,
    options_of=options_of,
    facts={"correct": N_("Correct identifications")},
    round_name=N_("the scores"),
)
