"""Spywhere: the end-of-game wizard (passports, cards, identifications, who ended it) and the
result with how each score was made."""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

import flet as ft

import scoring
from scoring import spywhere
from scoring.errors import N_

from .frame import correction_banner, game_bar, game_over_panel, snack
from .i18n import Translator
from .new_game import NATIONALITY_NAMES
from .state import REFUSALS, AppState
from .widgets import body, choice_chips, error_box, heading, info_box, note, stepper

STEPS = (
    N_("Passports"),
    N_("Cards of their own nationality"),
    N_("Identifications"),
    N_("Who ended the game?"),
)
NO_ATTEMPT = "-"
PILE_RAN_OUT = "-"


@ft.component
def SpywhereScreen(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    result: scoring.Replay,
    fix_round: int | None = None,
    key: str | None = None,
) -> ft.View:
    """`fix_round` (0): the game was stored before a rule it breaks; the wizard opens on it."""
    t = state.t
    step, set_step = ft.use_state(0 if fix_round is not None or not record["rounds"] else None)
    draft, set_draft = ft.use_state(None)
    names = list(result.table.names)
    current = (
        draft
        if draft is not None
        else (
            copy.deepcopy(record["rounds"][0]) if record["rounds"] else scoring.blank_round(record)
        )
    )
    editing = 0 if record["rounds"] else None
    errors = scoring.check_round({**record, "rounds": []}, current) if step is not None else []

    def save() -> None:
        try:
            state.save_round(game_id, editing, current)
        except REFUSALS as refused:
            state.say(" ".join(state.refusal(refused)))
            return
        if editing is not None and fix_round is None:  # a correction keeps this screen
            set_step(None)
            set_draft(None)
        state.say(t("Scores saved."))  # a first save gets a fresh screen (see GameView)

    controls: list[ft.Control] = [*snack(state), *correction_banner(t, fix_round)]
    if step is None:
        controls += results(state, game_id, result)
        controls.append(
            ft.OutlinedButton(
                t("Correct the end of the game"),
                icon=ft.Icons.EDIT,
                height=48,
                on_click=lambda: set_step(0),
            )
        )
    else:
        controls += wizard(
            t, record, result, names, current, set_draft, step, set_step, errors, save
        )
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, record),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def results(state: AppState, game_id: str, result: scoring.Replay) -> list[ft.Control]:
    t = state.t
    standings = result.standings()
    ending = result.state.ending
    rows: list[ft.Control] = [game_over_panel(state, game_id, result), heading(t("Scores"))]
    for name in sorted(result.table.names, key=lambda n: -standings["totals"][n]):
        own = ending.own_cards[name]
        correct = standings["correct"][name]
        how = t("{cards} cards × (1 + {correct} correct)", cards=own, correct=correct)
        if ending.ended_by == name:
            how += " + 3 " + t("for ending the game")
        passports = ", ".join(t(NATIONALITY_NAMES[n]) for n in ending.passports[name])
        rows.append(
            ft.ListTile(
                title=ft.Text(f"{name} · {passports}", weight=ft.FontWeight.BOLD),
                subtitle=ft.Text(how),
                trailing=ft.Text(
                    t.number(standings["totals"][name]),
                    size=22,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=t(
                        "{name}: {points} points",
                        name=name,
                        points=t.number(standings["totals"][name]),
                    ),
                ),
            )
        )
    return rows


def wizard(
    t: Translator,
    record: dict[str, Any],
    result: scoring.Replay,
    names: list[str],
    draft: dict[str, Any],
    set_draft: Any,
    step: int,
    set_step: Any,
    errors: list[scoring.RecordError],
    save: Any,
) -> list[ft.Control]:
    nationalities = list(result.setup.options.in_play)
    each = spywhere.passports_each(len(names))

    def changed(update: Any) -> None:
        """Apply `update` to the draft as it is when the change arrives."""

        def apply(current: dict[str, Any] | None) -> dict[str, Any]:
            new = copy.deepcopy(current if current is not None else draft)
            update(new)
            return new

        set_draft(apply)

    def choices(include_none: str | None, laid: Collection[str] = ()) -> list[tuple[str, str]]:
        """The nationalities to pick from, without those `laid` elsewhere already."""
        options = [(n, t(NATIONALITY_NAMES[n])) for n in nationalities if n not in laid]
        if include_none is not None:
            options.insert(0, (NO_ATTEMPT, include_none))
        return options

    head = heading(
        t("End of the game · step {step} of 4: {title}", step=step + 1, title=t(STEPS[step]))
    )
    body: list[ft.Control] = []
    if step == 0:
        body.append(note(t("Everyone shows their passport.")))
        for name in names:
            held = draft["passports"].get(name, [])
            for slot in range(each):
                body.append(
                    choice_chips(
                        t("{name}'s passport", name=name)
                        if each == 1
                        else t("{name}'s passport {number}", name=name, number=slot + 1),
                        choices(None),
                        held[slot] if slot < len(held) else None,
                        lambda key, n=name, s=slot: changed(
                            lambda d: d["passports"].__setitem__(
                                n, set_slot(d["passports"].get(n, []), s, key)
                            )
                        ),
                    )
                )
    elif step == 1:
        body.append(note(t("Count the cards of your own nationality in your hand.")))
        limit = spywhere.CARDS_PER_NATIONALITY * each
        for name in names:
            body.append(
                stepper(
                    t("{name}: own cards", name=name),
                    draft["own_cards"].get(name, 0),
                    0,
                    limit,
                    lambda step, n=name: changed(
                        lambda d: d["own_cards"].__setitem__(
                            n, max(0, min(limit, d["own_cards"].get(n, 0) + step))
                        )
                    ),
                    t,
                )
            )
    elif step == 2:
        body.append(note(t("Who tried to identify whom as what? Leave out attempts not made.")))
        for guesser in names:
            body.append(ft.Text(t("{name} guessed", name=guesser), weight=ft.FontWeight.BOLD))
            for opponent in names:
                if opponent == guesser:
                    continue
                made = draft["identifications"].get(guesser, {}).get(opponent, [])
                for slot in range(each):
                    body.append(
                        choice_chips(
                            t("{guesser} on {opponent}", guesser=guesser, opponent=opponent),
                            choices(
                                t("no attempt"),
                                spywhere.laid_elsewhere(
                                    draft["identifications"].get(guesser, {}), opponent, slot
                                ),
                            ),
                            made[slot] if slot < len(made) else NO_ATTEMPT,
                            lambda key, g=guesser, o=opponent, s=slot: changed(
                                lambda d: set_guess(d, g, o, s, key)
                            ),
                        )
                    )
    else:
        body.append(
            note(
                t(
                    "The game ends when the draw pile runs out, or when a player has tried "
                    "to identify every opponent (3 points)."
                )
            )
        )
        value = draft.get("ended_by") or PILE_RAN_OUT
        body.append(
            ft.RadioGroup(
                value=value,
                on_change=lambda e: changed(
                    lambda d: d.__setitem__(
                        "ended_by", None if e.control.value == PILE_RAN_OUT else e.control.value
                    )
                ),
                content=ft.Column(
                    [
                        ft.Radio(value=PILE_RAN_OUT, label=t("The draw pile ran out")),
                        *[
                            ft.Radio(value=n, label=t("{name} tried everyone", name=n))
                            for n in names
                        ],
                    ]
                ),
            )
        )
        if not errors:
            preview = scoring.standings({**record, "rounds": [draft]})
            body.append(
                info_box(
                    [
                        ft.Text(
                            t("{name}: {points}", name=n, points=t.number(preview["totals"][n]))
                        )
                        for n in names
                    ]
                )
            )
    nav: list[ft.Control] = [
        ft.OutlinedButton(
            t("Back"),
            height=48,
            key="back",
            disabled=step == 0,
            on_click=lambda: set_step(step - 1),
        ),
    ]
    if step < len(STEPS) - 1:
        nav.append(
            ft.FilledButton(t("Next"), height=48, key="next", on_click=lambda: set_step(step + 1))
        )
    else:
        nav.append(
            ft.FilledButton(
                t("Save scores"),
                icon=ft.Icons.SAVE,
                height=48,
                key="save",
                disabled=bool(errors),
                on_click=lambda: save(),
            )
        )
    last = step == len(STEPS) - 1
    shown = [t.problem(e) for e in errors if last or _belongs_to(e, step)]
    # The same skeleton on every step, the step's content under its own key: a redraw never
    # reshuffles the buttons (a tap on a reshuffled button was sometimes lost).
    return [
        head,
        ft.Column(
            body, key=f"step-{step}", spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        ),
        ft.Column([error_box(shown)], key="messages"),
        ft.Row(nav, key="nav"),
    ]


def set_slot(values: list[str], slot: int, value: str | None) -> list[str]:
    """`values` with position `slot` set (None clears it); gaps are dropped."""
    padded: list[str | None] = [*values, *[None] * (slot + 1 - len(values))]
    padded[slot] = value
    return [v for v in padded if v]


def set_guess(draft: dict[str, Any], guesser: str, opponent: str, slot: int, key: str) -> None:
    made = draft["identifications"].setdefault(guesser, {})
    guesses = set_slot(made.get(opponent, []), slot, None if key == NO_ATTEMPT else key)
    if guesses:
        made[opponent] = guesses
    else:
        made.pop(opponent, None)


def _belongs_to(error: scoring.RecordError, step: int) -> bool:
    key = ("passports", "own_cards", "identifications", "ended_by")[step]
    return f".{key}" in error.path
