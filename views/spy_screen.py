"""SPY at the table: each base's next target and lit bombs; one-tap events; who is out."""

from __future__ import annotations

from typing import Any

import flet as ft

import scoring
from scoring.errors import N_

from .frame import (
    correction_banner,
    entry_exits,
    game_bar,
    game_over_panel,
    snack,
)
from .i18n import Translator
from .state import REFUSALS, AppState
from .widgets import body, choice_chips, error_box, heading, info_box, note

TARGET_NAMES = {
    "safe-1": N_("Safe 1"),
    "safe-2": N_("Safe 2"),
    "top-secret-1": N_("Top Secret 1"),
    "top-secret-2": N_("Top Secret 2"),
}


def target_name(t: Translator, target: str) -> str:
    return t(TARGET_NAMES[target])


def describe(t: Translator, entry: dict[str, Any]) -> str:
    """One event as the table would say it."""
    if entry["event"] == "target":
        text = t(
            "{by} found {base}'s {target}",
            by=entry["by"],
            base=entry["base"],
            target=target_name(t, entry["target"]),
        )
        if entry["out"]:
            text += " · " + t("{name} is out", name=entry["out"])
        return text
    if entry["event"] == "bomb-lit":
        return t("{by} lit a bomb in {base}'s base", by=entry["by"], base=entry["base"])
    return t(
        "{by} found a lit bomb in {base}'s base: it exploded, {by} is out",
        by=entry["by"],
        base=entry["base"],
    )


@ft.component
def SpyScreen(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    result: scoring.Replay,
    fix_round: int | None = None,
    key: str | None = None,
) -> ft.View:
    """`fix_round`: the game was stored before a rule it breaks; only that event's correction
    is open (`result` is the game up to it)."""
    t = state.t
    standings = result.standings()
    still_in = [n for n in result.table.names if n not in standings["eliminated"]]
    fixing = None if fix_round is None else record["rounds"][fix_round]
    by, set_by = ft.use_state(fixing["by"] if fixing else None)
    base, set_base = ft.use_state(fixing["base"] if fixing else None)
    editing, set_editing = ft.use_state(fix_round)  # index of the event being corrected
    leave, saved = entry_exits(state, fix_round, lambda: set_editing(None))
    problems, set_problems = ft.use_state(list[str]())
    searcher = by if by in still_in else (still_in[0] if still_in else None)
    others = [n for n in still_in if n != searcher]
    target = base if base in others else (others[0] if others else None)

    def record_event(kind: str) -> None:
        event = {"event": kind, "by": searcher, "base": target}
        try:
            after = state.save_round(game_id, editing, event)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        log = after.standings()["log"]
        state.say(describe(t, log[editing if editing is not None else len(log) - 1]))
        if fix_round is None:
            set_problems([])
        saved()

    def delete_event() -> None:
        try:
            state.delete_round(game_id, editing)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        state.say(t("Event deleted"))
        if fix_round is None:
            set_problems([])
        saved()

    def edit(index: int) -> None:
        event = record["rounds"][index]
        set_editing(index)
        set_by(event["by"])
        set_base(event["base"])
        set_problems([])

    controls: list[ft.Control] = [*snack(state), *correction_banner(t, fix_round)]
    if fix_round is None:
        controls.append(game_over_panel(state, game_id, result))
    controls.append(bases(t, result, standings))
    if not result.finished or editing is not None:
        controls.append(
            event_panel(
                t,
                standings,
                still_in,
                searcher,
                target,
                set_by,
                set_base,
                record_event,
                editing,
                delete_event,
                leave,
            )
        )
    controls.append(error_box(problems))
    controls.append(event_log(t, standings["log"], edit))
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, record),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def bases(t: Translator, result: scoring.Replay, standings: dict[str, Any]) -> ft.Control:
    cards: list[ft.Control] = [heading(t("Bases"))]
    per_base = standings["bombs_per_base"]
    for name in result.table.names:
        lit = standings["lit_bombs"][name]
        if name in standings["eliminated"]:
            place = standings["totals"][name]
            status = t("Out · place {place}", place=place)
        else:
            status = t(
                "Next target: {target}", target=target_name(t, standings["next_target"][name])
            )
        found = standings["targets_found"][name]
        cards.append(
            ft.Card(
                content=ft.Container(
                    padding=10,
                    content=ft.Row(
                        [
                            ft.Column(
                                [
                                    ft.Text(name, weight=ft.FontWeight.BOLD, size=16),
                                    ft.Text(status),
                                ],
                                spacing=2,
                                expand=True,
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCK_OPEN if i < found else ft.Icons.LOCK, size=18
                                    )
                                    for i in range(len(TARGET_NAMES))
                                ],
                                spacing=0,
                                tooltip=t.plural(
                                    "{count} of 4 targets found",
                                    "{count} of 4 targets found",
                                    found,
                                ),
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCAL_FIRE_DEPARTMENT
                                        if i < lit
                                        else ft.Icons.CIRCLE_OUTLINED,
                                        size=18,
                                        color=ft.Colors.ERROR if i < lit else None,
                                    )
                                    for i in range(per_base)
                                ],
                                spacing=0,
                            ),
                            ft.Text(t.plural("{count} lit", "{count} lit", lit), size=12),
                        ]
                    ),
                )
            )
        )
    return ft.Column(cards, spacing=4)


def event_panel(
    t: Translator,
    standings: dict[str, Any],
    still_in: list[str],
    searcher: str | None,
    target: str | None,
    set_by: Any,
    set_base: Any,
    record_event: Any,
    editing: int | None,
    delete_event: Any,
    cancel: Any,
) -> ft.Control:
    if searcher is None or target is None:
        return ft.Container()
    lit = standings["lit_bombs"][target]
    next_target = target_name(t, standings["next_target"][target])
    title = (
        t("What happened?") if editing is None else t("Correct event {number}", number=editing + 1)
    )
    buttons: list[ft.Control] = [
        ft.FilledButton(
            t("Found {target}", target=next_target),
            icon=ft.Icons.SEARCH,
            height=52,
            on_click=lambda: record_event("target"),
        ),
        ft.FilledTonalButton(
            t("Lit a bomb"),
            icon=ft.Icons.LOCAL_FIRE_DEPARTMENT,
            height=52,
            disabled=lit >= standings["bombs_per_base"],
            on_click=lambda: record_event("bomb-lit"),
        ),
        ft.FilledTonalButton(
            t("Lit bomb exploded"),
            icon=ft.Icons.DANGEROUS,
            height=52,
            disabled=lit == 0,
            on_click=lambda: record_event("bomb-exploded"),
        ),
    ]
    if editing is not None:
        buttons += [
            ft.OutlinedButton(
                t("Delete event"), icon=ft.Icons.DELETE_OUTLINE, on_click=lambda: delete_event()
            ),
            ft.TextButton(t("Cancel"), on_click=lambda: cancel()),
        ]
    return info_box(
        [
            ft.Text(title, weight=ft.FontWeight.BOLD),
            choice_chips(t("Who spied?"), [(n, n) for n in still_in], searcher, set_by),
            choice_chips(
                t("On whose base?"), [(n, n) for n in still_in if n != searcher], target, set_base
            ),
            ft.Column(buttons, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        ]
    )


def event_log(t: Translator, log: list[dict[str, Any]], edit: Any) -> ft.Control:
    if not log:
        return ft.Container()
    rows: list[ft.Control] = [
        heading(t("Events")),
        note(t("Tap an event to correct or delete it.")),
    ]
    for index in reversed(range(len(log))):
        rows.append(
            ft.ListTile(
                dense=True,
                leading=ft.Text(str(index + 1)),
                title=ft.Text(describe(t, log[index])),
                on_click=lambda _e, i=index: edit(i),
            )
        )
    return ft.Column(rows, spacing=0)
