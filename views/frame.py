"""Pieces every game's table screen shares: the bar with undo, the game-over panel (made in
views/result.py), notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from scoring.errors import N_

from . import buttons
from .games import AtTable, view_of
from .guest import guest_bar, share_panel
from .i18n import Translator
from .notices import notices_panel
from .result import game_over_panel as game_over_panel  # the games take it from here
from .state import HOST, AppState, Step
from .widgets import back_bar, body, close, color_dot, icon_button, info_box

CHANGE_NAMES = {
    "save": N_("save {round}"),
    "change": N_("correct {round}"),
    "delete": N_("delete {round}"),
}


def change_name(at: AtTable, step: Step) -> str:
    """What a step of the undo history did, in words: "save deal 5"."""
    return at.t(CHANGE_NAMES[step.what], round=at.round_name(step.index))


def game_bar(at: AtTable, title: str, entering: bool) -> ft.AppBar:
    """Back, and this device's undo and redo of the game's saved changes. While a round is
    being entered they are not offered: they would undo a saved round, not the entry."""
    state, t, game_id = at.app, at.t, at.game_id
    actions: list[ft.Control] = []
    undo_step, redo_step = (None, None) if entering or at.read_only else state.steps(game_id)

    if undo_step is not None:
        label = t("Undo: {what}", what=change_name(at, undo_step))
        actions.append(icon_button(ft.Icons.UNDO, label, lambda: swap(at, True)))
    if redo_step is not None:
        label = t("Redo: {what}", what=change_name(at, redo_step))
        actions.append(icon_button(ft.Icons.REDO, label, lambda: swap(at, False)))
    if state.role != HOST:  # a guest's screen is this game only: nowhere to go back to
        return guest_bar(state, title, actions)
    if state.sharing is not None:
        actions.append(share_button(state))
    return back_bar(title, state.back, t, actions=actions)


def swap(at: AtTable, backwards: bool) -> None:
    """Undo (`backwards`) or redo this device's last change of the game, and say what it did."""
    state, t = at.app, at.t
    step = state.undo(at.game_id) if backwards else state.redo(at.game_id)
    if step is None:
        state.say(t("This game was changed on another device since: nothing to undo here."))
    elif backwards:
        state.say(t("Undone: {what}", what=change_name(at, step)))
    else:
        state.say(t("Redone: {what}", what=change_name(at, step)))


def share_button(state: AppState) -> ft.Control:
    """The host's way to share the table; while shared, it says how many wrong PINs came (a
    note about each passes; this stays until sharing stops)."""
    t, sharing = state.t, state.sharing
    assert sharing is not None
    if not sharing.active:
        return icon_button(ft.Icons.QR_CODE_2, t("Share this table"), share_panel(state))
    wrong = len(sharing.wrong_pins())
    if not wrong:
        return icon_button(ft.Icons.WIFI_TETHERING, t("Sharing this table"), share_panel(state))
    label = t.plural(
        "Sharing this table: {count} wrong PIN", "Sharing this table: {count} wrong PINs", wrong
    )
    return icon_button(ft.Icons.WIFI_TETHERING_ERROR, label, share_panel(state))


def screen(
    at: AtTable,
    title: str,
    controls: list[ft.Control],
    entering: bool = False,
    fills: bool = False,
    scroller: ft.MutableRef[ft.Column | None] | None = None,
    sheet: list[ft.Control] | None = None,
    kept: KeptEntry | None = None,
) -> ft.View:
    """A game's table screen: its bar (back, undo, redo) over the content, scrolling. A phone
    that watches a shared table gets the totals in large type on top. The last of the
    `controls` of an entry that `fills` the screen scrolls by itself (`numpad.PinnedPad`);
    otherwise `scroller` is given the column that scrolls, for an entry that moves it.

    `sheet`: the game's own controls, under `controls` while no entry is open. While one is,
    they stay drawn but are not shown, so that a Save shows them again as they were, with
    only what the saved round changed made anew (a sheet made afresh at every Save cost most
    of its time). `kept`: with a sheet, the entry closed last, kept drawn but not shown in the
    same way (`round_entry.RoundEntry.kept`): removing the entry at a Save cost most of what
    was left, and the next round's entry is that one again, set afresh. Without a sheet there
    is nothing to keep it under: it is not used."""
    game = view_of(at.record["game"])
    if at.read_only and game.totals_are_scores and game.scoreboard:
        controls = [scoreboard(at), *controls]
    controls = [*notices_panel(at.app), *host_moved_on(at), *controls]
    content: list[ft.BaseControl] = []
    if entering and sheet is not None:
        content = [
            entry_column(controls, fills, True, scroller),
            scrolling(sheet, "sheet", shown=False),
        ]
    elif entering and fills:
        *above, filling = controls
        content = [*([body(above)] if above else []), filling]
    elif entering:
        content = [scrolling(controls, "entry", scroller)]
    elif sheet is not None:
        if kept is not None:
            content.append(entry_column(kept.controls, kept.fills, False, None))
        content.append(scrolling([*controls, *sheet], "sheet"))
    else:
        content = [scrolling(controls, "sheet", scroller)]
    return ft.View(
        route=f"/game/{at.game_id}", appbar=game_bar(at, title, entering), controls=content
    )


@dataclass(frozen=True)
class KeptEntry:
    """A closed entry kept under the sheet (its controls as they were last shown)."""

    controls: list[ft.Control]
    fills: bool


def scrolling(
    controls: list[ft.Control],
    key: str,
    scroller: ft.MutableRef[ft.Column | None] | None = None,
    shown: bool = True,
) -> ft.Control:
    """The sheet or an entry, scrolling in a column of its own, keyed by which it is: each
    opens at its top (one scrollable for both kept the entry's offset, and after a save the
    sheet's top, with the next round's button, was out of view). Not `shown`: kept, drawn,
    under the other."""
    return ft.Column(
        [body(controls)],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        key=key,
        ref=scroller,
        visible=shown,
    )


def entry_column(
    controls: list[ft.Control],
    fills: bool,
    shown: bool,
    scroller: ft.MutableRef[ft.Column | None] | None,
) -> ft.Control:
    """An entry over a sheet kept under it, or kept under the sheet (not `shown`): the same
    column either way, so that showing or hiding it changes one property."""
    if fills:  # the pad's place: the last control scrolls by itself, pinned to the bottom
        *above, filling = controls
        return ft.Column(
            [*([body(above)] if above else []), filling], expand=True, key="entry", visible=shown
        )
    return scrolling(controls, "entry", scroller, shown)


def scoreboard(at: AtTable) -> ft.Control:
    """Every player's total, big enough to read on a phone lying on the table; the leaders (or
    winners) stand out. Two tiles a row on a phone, more on a wider screen."""
    t, result = at.t, at.result
    places = result.places

    def tile(name: str) -> ft.Control:
        leading = places.get(name) == 1 and bool(result.round_totals)
        total = t.number(result.totals[name])
        return ft.Container(
            col={"xs": 6, "md": 4, "lg": 3},
            bgcolor=ft.Colors.PRIMARY_CONTAINER if leading else ft.Colors.SURFACE_CONTAINER_HIGH,
            border_radius=12,
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            content=ft.Semantics(
                label=t("{name}: {total}, leading", name=name, total=total)
                if leading
                else t("{name}: {total}", name=name, total=total),
                container=True,
                exclude_semantics=True,
                content=ft.Column(
                    spacing=0,
                    controls=[
                        ft.Row(
                            [
                                color_dot(at.color_of(name)),
                                ft.Text(
                                    name,
                                    size=18,
                                    no_wrap=True,
                                    expand=True,
                                    overflow=ft.TextOverflow.ELLIPSIS,  # at a whole letter
                                ),
                                *([ft.Icon(ft.Icons.STAR, size=20)] if leading else []),
                            ]
                        ),
                        ft.Text(total, size=40, weight=ft.FontWeight.BOLD),
                    ],
                ),
            ),
        )

    return ft.ResponsiveRow([tile(name) for name in result.totals], spacing=8, run_spacing=8)


def host_moved_on(at: AtTable) -> list[ft.Control]:
    """On a guest's phone, once the host has opened another game (Play again, say): which, and
    a tap to follow; until then this game (its result) stays on the screen."""
    state = at.app
    other = state.host_moved_on if state.role != HOST else None
    if other is None or other == at.game_id:
        return []
    t = state.t
    record = state.game_at(other).record
    title = view_of(record["game"]).title
    if record["rounds"]:
        said = t("The host opened another game of {game}.", game=title)
    else:
        said = t("The host started a new game of {game}.", game=title)
    return [
        info_box(
            [
                ft.Text(said, weight=ft.FontWeight.BOLD),
                buttons.FilledButton(
                    t("Follow"), icon=ft.Icons.ARROW_FORWARD, on_click=lambda: state.follow_host()
                ),
            ],
            ft.Colors.PRIMARY_CONTAINER,
        )
    ]


def correction_banner(t: Translator, fix_round: int | None) -> list[ft.Control]:
    """For a game stored before a rule it breaks: which round to correct, and why it matters."""
    if fix_round is None:
        return []
    return [
        info_box(
            [
                ft.Text(
                    t("Round {number} needs a correction", number=fix_round + 1),
                    weight=ft.FontWeight.BOLD,
                ),
                ft.Text(
                    t(
                        "This game was saved before Debrief knew a rule it breaks. Correct the "
                        "round to go on; until then the game counts in no statistics."
                    )
                ),
            ],
            ft.Colors.ERROR_CONTAINER,
        )
    ]


def entry_exits(
    state: AppState,
    fix_round: int | None,
    close_entry: Callable[[], None],
    saved_entry: Callable[[], None],
) -> tuple[Callable[[], None], Callable[[], None]]:
    """(leave, saved) for a round's entry: normally `close_entry` and `saved_entry`; while a
    stored game needs a correction, leaving goes home and a saved correction shows the game
    afresh (the game screen is made anew for it, so this one must not change its own state)."""
    if fix_round is None:
        return close_entry, saved_entry
    return (lambda: state.go("/")), (lambda: None)


def asked_first(at: AtTable, open_correction: Callable[[], None]) -> Callable[[], None] | None:
    """Opening a round's correction: at once at the table; in a game of the history (which
    opens read-only) only after the player confirms; never for a guest who watches (None:
    the round is not a button at all)."""
    if at.read_only:
        return None
    if at.app.is_active(at.game_id):
        return open_correction
    t = at.t

    def ask() -> None:
        page = ft.context.page

        def correct() -> None:
            close(dialog)
            open_correction()

        dialog: ft.AlertDialog = ft.AlertDialog(
            modal=True,
            title=ft.Text(t("This game is finished. Correct it anyway?")),
            content=ft.Text(
                t("It stays in the history; its totals and statistics follow the correction.")
            ),
            actions=[
                buttons.TextButton(t("Cancel"), on_click=lambda: close(dialog)),
                buttons.FilledButton(t("Correct"), on_click=correct),
            ],
        )
        page.show_dialog(dialog)

    return ask
