"""History (every game, newest first) and the player roster."""

from __future__ import annotations

import flet as ft

from storage.errors import StorageError

from .state import AppState
from .widgets import GAME_ICONS, GAME_TITLES, back_bar, body, error_box, note


def when(summary: dict) -> str:
    return (summary.get("started") or "")[:10]


@ft.component
def HistoryView(state: AppState) -> ft.View:
    t = state.t
    _ = state.revision
    summaries = state.store.summaries()
    items: list[ft.Control] = []
    for summary in summaries:
        winners = ", ".join(summary["winners"])
        if summary["active"]:
            status = t("in progress")
        else:
            status = t("won by {names}", names=winners) if winners else t("no winner")
        items.append(
            ft.ListTile(
                leading=ft.Icon(GAME_ICONS[summary["game"]]),
                title=ft.Text(f"{GAME_TITLES[summary['game']]} · {', '.join(summary['players'])}"),
                subtitle=ft.Text(
                    f"{when(summary)} · {t('{count} rounds', count=summary['rounds'])} · {status}"
                ),
                on_click=lambda _e, s=summary: state.go(f"/game/{s['id']}"),
            )
        )
    if not items:
        items.append(note(t("No games yet.")))
    return ft.View(
        route="/history",
        appbar=back_bar(t("History"), lambda: state.go("/"), t),
        controls=[ft.ListView(items, expand=True)],
    )


@ft.component
def PlayersView(state: AppState) -> ft.View:
    t = state.t
    _ = state.revision
    name, set_name = ft.use_state("")
    born, set_born = ft.use_state("")
    problems, set_problems = ft.use_state(list[str]())

    def add() -> None:
        try:
            state.store.add_player(name, born.strip() or None)
        except StorageError as error:
            set_problems([t.problem(error)])
            return
        set_problems([])
        set_name("")
        set_born("")
        state.revision += 1

    rows: list[ft.Control] = [
        ft.TextField(
            label=t("Name"),
            value=name,
            max_length=40,
            on_change=lambda e: set_name(e.control.value),
        ),
        ft.TextField(
            label=t("Born (YYYY-MM-DD or year, optional)"),
            value=born,
            on_change=lambda e: set_born(e.control.value),
        ),
        error_box(problems),
        ft.FilledButton(
            t("Add player"), icon=ft.Icons.PERSON_ADD, disabled=not name.strip(), on_click=add
        ),
        ft.Divider(),
    ]
    for player in state.store.players():
        rows.append(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.PERSON),
                title=ft.Text(player["name"]),
                subtitle=ft.Text(t("born {date}", date=player["born"]) if player["born"] else ""),
            )
        )
    return ft.View(
        route="/players",
        appbar=back_bar(t("Players"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(rows)],
    )
