"""SPY at the table: each base's next target and lit bombs; one-tap events; who is out."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

import scoring
from scoring import spy
from scoring.errors import N_

from ..frame import asked_first, correction_banner, entry_exits, game_over_panel, screen
from ..hooks import NO_ROUND, NO_TEXT, use_messages, use_value
from ..i18n import Translator
from ..state import REFUSALS
from ..widgets import choice_chips, error_box, heading, info_box, note
from . import AtTable, GameView, NewGameForm

TARGET_NAMES = {
    "safe-1": N_("Safe 1"),
    "safe-2": N_("Safe 2"),
    "top-secret-1": N_("Top Secret 1"),
    "top-secret-2": N_("Top Secret 2"),
}


def target_name(t: Translator, target: str) -> str:
    return t(TARGET_NAMES[target])


def describe(t: Translator, entry: spy.LoggedEvent) -> str:
    """One event as the table would say it."""
    if entry.kind == "target":
        text = t(
            "{by} found {base}'s {target}",
            by=entry.by,
            base=entry.base,
            target=target_name(t, entry.target or ""),
        )
        if entry.out:
            text += " · " + t("{name} is out", name=entry.out)
        return text
    if entry.kind == "bomb-lit":
        return t("{by} lit a bomb in {base}'s base", by=entry.by, base=entry.base)
    return t(
        "{by} found a lit bomb in {base}'s base: it exploded, {by} is out",
        by=entry.by,
        base=entry.base,
    )


@ft.component
def SpyScreen(at: AtTable, key: str | None = None) -> ft.View:
    """`at.fix_round`: the game was stored before a rule it breaks; only that event's
    correction is open (`at.result` is the game up to it)."""
    state, t = at.state, at.t
    board = spy.RULES.board(scoring.state_as(at.result, spy.State))
    still_in = list(board.still_in)
    fixing = None if at.fix_round is None else at.rounds[at.fix_round]
    fixing = fixing if isinstance(fixing, dict) else None  # an event has "by" and "base"
    by, set_by = use_value(str(fixing["by"]) if fixing else NO_TEXT)
    base, set_base = use_value(str(fixing["base"]) if fixing else NO_TEXT)
    editing, set_editing = use_value(at.fix_round if at.fix_round is not None else NO_ROUND)
    leave, saved = entry_exits(state, at.fix_round, lambda: set_editing(NO_ROUND))
    problems, set_problems = use_messages()
    searcher = by if by in still_in else (still_in[0] if still_in else None)
    others = [n for n in still_in if n != searcher]
    target = base if base in others else (others[0] if others else None)

    def record_event(kind: str) -> None:
        if searcher is None or target is None:
            return
        event = spy.Event(kind, searcher, target)
        try:
            after = state.save_round(at.game_id, editing, event.to_json())
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        log = spy.RULES.board(scoring.state_as(after, spy.State)).log
        state.say(describe(t, log[editing if editing is not None else len(log) - 1]))
        if at.fix_round is None:
            set_problems([])
        saved()

    def delete_event() -> None:
        if editing is None:
            return
        try:
            state.delete_round(at.game_id, editing)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        state.say(t("Event deleted"))
        if at.fix_round is None:
            set_problems([])
        saved()

    def edit(index: int) -> None:
        event = scoring.as_object(at.rounds[index])
        set_editing(index)
        set_by(str(event["by"]))
        set_base(str(event["base"]))
        set_problems([])

    controls: list[ft.Control] = [*correction_banner(t, at.fix_round)]
    if at.fix_round is None:
        controls.append(game_over_panel(at))
    controls.append(bases(t, board))
    watching = at.read_only
    if (not at.result.finished or editing is not None) and searcher and target and not watching:
        controls.append(
            event_panel(
                t,
                board,
                still_in,
                (searcher, target),
                (set_by, set_base),
                record_event,
                editing,
                delete_event,
                leave,
            )
        )
    controls.append(error_box(problems))
    controls.append(event_log(t, board.log, None if at.read_only else correction_of(at, edit)))
    return screen(at, spy.RULES.title, controls, entering=editing is not None)


def bases(t: Translator, board: spy.Board) -> ft.Control:
    cards: list[ft.Control] = [heading(t("Bases"))]
    for base in board.bases:
        if base.place is not None:
            status = t("Out · place {place}", place=base.place)
        else:
            status = t("Next target: {target}", target=target_name(t, base.next_target or ""))
        cards.append(
            ft.Card(
                content=ft.Container(
                    padding=10,
                    content=ft.Row(
                        [
                            ft.Column(
                                [
                                    ft.Text(base.owner, weight=ft.FontWeight.BOLD, size=16),
                                    ft.Text(status),
                                ],
                                spacing=2,
                                expand=True,
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCK_OPEN if i < base.found else ft.Icons.LOCK,
                                        size=18,
                                    )
                                    for i in range(len(spy.TARGETS))
                                ],
                                spacing=0,
                                tooltip=t.plural(
                                    "{count} of 4 targets found",
                                    "{count} of 4 targets found",
                                    base.found,
                                ),
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCAL_FIRE_DEPARTMENT
                                        if i < base.lit
                                        else ft.Icons.CIRCLE_OUTLINED,
                                        size=18,
                                        color=ft.Colors.ERROR if i < base.lit else None,
                                    )
                                    for i in range(base.bombs)
                                ],
                                spacing=0,
                            ),
                            ft.Text(t.plural("{count} lit", "{count} lit", base.lit), size=12),
                        ]
                    ),
                )
            )
        )
    return ft.Column(cards, spacing=4)


def event_panel(
    t: Translator,
    board: spy.Board,
    still_in: list[str],
    chosen: tuple[str, str],
    pick: tuple[Callable[[str], None], Callable[[str], None]],
    record_event: Callable[[str], None],
    editing: int | None,
    delete_event: Callable[[], None],
    cancel: Callable[[], None],
) -> ft.Control:
    searcher, target = chosen
    pick_searcher, pick_target = pick
    base = next(b for b in board.bases if b.owner == target)
    title = (
        t("What happened?") if editing is None else t("Correct event {number}", number=editing + 1)
    )
    buttons: list[ft.Control] = [
        ft.FilledButton(
            t("Found {target}", target=target_name(t, base.next_target or "")),
            icon=ft.Icons.SEARCH,
            height=52,
            on_click=lambda: record_event("target"),
        ),
        # Outlined, not tonal: a tonal button has the panel's own colour and vanishes into it.
        ft.OutlinedButton(
            t("Lit a bomb"),
            icon=ft.Icons.LOCAL_FIRE_DEPARTMENT,
            height=52,
            disabled=not base.can_light,
            on_click=lambda: record_event("bomb-lit"),
        ),
        ft.OutlinedButton(
            t("Lit bomb exploded"),
            icon=ft.Icons.DANGEROUS,
            height=52,
            disabled=not base.can_explode,
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
            choice_chips(t("Who spied?"), [(n, n) for n in still_in], searcher, pick_searcher),
            choice_chips(
                t("On whose base?"),
                [(n, n) for n in still_in if n != searcher],
                target,
                pick_target,
            ),
            ft.Column(buttons, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        ]
    )


def correction_of(at: AtTable, edit: Callable[[int], None]) -> Callable[[int], None]:
    """Opening event `index`'s correction (asked first in a game of the history)."""

    def open_event(index: int) -> None:
        ask = asked_first(at, lambda: edit(index))
        if ask is not None:
            ask()

    return open_event


def event_log(
    t: Translator, log: tuple[spy.LoggedEvent, ...], edit: Callable[[int], None] | None
) -> ft.Control:
    """The events, last first; each a button that corrects it (`edit`), unless watching."""
    if not log:
        return ft.Container()
    rows: list[ft.Control] = [heading(t("Events"))]
    if edit is not None:
        rows.append(note(t("Tap an event to correct or delete it.")))
    for index in reversed(range(len(log))):
        rows.append(
            ft.ListTile(
                leading=ft.Text(str(index + 1)),
                title=ft.Text(describe(t, log[index])),
                on_click=None if edit is None else (lambda _e, i=index, e=edit: e(i)),
            )
        )
    return ft.Column(rows, spacing=0)


def options_form(form: NewGameForm) -> list[ft.Control]:
    return []  # SPY has no options


VIEW = GameView(
    rules=spy.RULES,
    icon=ft.Icons.VISIBILITY,
    screen=SpyScreen,
    options_form=options_form,
    options_of=lambda seats, options: {},
    round_name=N_("event {number}"),
    totals_are_scores=False,  # places in the order players fell: the bases show who is in
    facts={"survived": N_("Times survived"), "bombs_set_off": N_("Bombs set off")},
)
