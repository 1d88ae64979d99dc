"""Players: the roster, and each player's statistics per game and head to head."""

from __future__ import annotations

from typing import Any

import flet as ft

from scoring.errors import N_
from scoring.stats import HeadToHead, PlayerGameStats, head_to_head, player_stats
from storage.errors import StorageError

from .i18n import Translator
from .state import AppState
from .widgets import GAME_TITLES, back_bar, body, choice_chips, error_box, heading, info_box, note

FACT_NAMES = {
    "moons": N_("Moons shot"),
    "token_losses": N_("Lost by 9 tokens"),
    "perfect": N_("Perfect 21s"),
    "survived": N_("Times survived"),
    "bombs_set_off": N_("Bombs set off"),
    "correct": N_("Correct identifications"),
}


@ft.component
def PlayersView(state: AppState) -> ft.View:
    t = state.t
    _ = state.revision
    name, set_name = ft.use_state("")
    born, set_born = ft.use_state("")
    problems, set_problems = ft.use_state(list[str]())
    show_archived, set_show_archived = ft.use_state(False)

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
        heading(t("Add a player")),
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
        heading(t("Roster")),
    ]
    for player in state.store.players(include_archived=show_archived):
        subtitle = t("born {date}", date=player["born"]) if player["born"] else ""
        if player["archived"]:
            subtitle = (subtitle + " · " if subtitle else "") + t("archived")
        rows.append(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.PERSON),
                title=ft.Text(player["name"]),
                subtitle=ft.Text(subtitle) if subtitle else None,
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                on_click=lambda _e, p=player: state.go(f"/players/{p['id']}"),
            )
        )
    rows.append(
        ft.Switch(
            label=t("Show archived players"),
            value=show_archived,
            on_change=lambda e: set_show_archived(e.control.value),
        )
    )
    return ft.View(
        route="/players",
        appbar=back_bar(t("Players"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(rows)],
    )


def percent(t: Translator, value: Any) -> str:
    return "–" if value is None else f"{t.number(round(float(value) * 100))} %"


def figures(t: Translator, stats: PlayerGameStats) -> list[ft.Control]:
    """One game's figures for one player, each labelled for screen readers and tests."""
    best = t("lowest") if stats.game in ("black-spy", "spy") else t("highest")
    lines = [
        (t("Games"), str(stats.games)),
        (t("Wins"), str(stats.wins)),
        (t("Win rate"), percent(t, stats.win_rate)),
        (t("Average"), t.number(round(float(stats.average or 0), 1))),
        (t("Best ({which} is best)", which=best), t.number(stats.best or 0)),
        (t("Worst"), t.number(stats.worst or 0)),
        *[(t(FACT_NAMES[fact]), str(value)) for fact, value in sorted(stats.facts.items())],
    ]
    return [
        ft.Row(
            [
                ft.Text(label, expand=True),
                ft.Text(
                    value,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=f"{GAME_TITLES[stats.game]} {label}: {value}",
                ),
            ]
        )
        for label, value in lines
    ]


@ft.component
def PlayerView(state: AppState, player_id: str) -> ft.View:
    t = state.t
    _ = state.revision
    new_name, set_new_name = ft.use_state(None)
    new_born, set_new_born = ft.use_state(None)
    problems, set_problems = ft.use_state(list[str]())
    rival, set_rival = ft.use_state(None)
    everyone = state.store.players(include_archived=True)
    player = next((p for p in everyone if p["id"] == player_id), None)
    if player is None:
        return ft.View(
            route=f"/players/{player_id}",
            appbar=back_bar(t("Players"), lambda: state.go("/players"), t),
            controls=[ft.Text(t("there is no player {player_id}", player_id=player_id))],
        )
    names = [player["name"], *player["former_names"]]
    summaries = state.store.summaries()

    def save() -> None:
        try:
            if new_name is not None and new_name.strip() != player["name"]:
                state.store.rename_player(player_id, new_name)
            if new_born is not None:
                state.store.set_player_birth(player_id, new_born.strip() or None)
        except StorageError as error:
            set_problems([t.problem(error)])
            return
        set_problems([])
        set_new_name(None)
        set_new_born(None)
        state.say(t("Saved."))
        state.revision += 1

    def archive() -> None:
        state.attempt(lambda: state.store.archive_player(player_id, not player["archived"]))
        state.revision += 1

    controls: list[ft.Control] = [
        ft.TextField(
            label=t("Name"),
            value=player["name"] if new_name is None else new_name,
            max_length=40,
            on_change=lambda e: set_new_name(e.control.value),
        ),
        ft.TextField(
            label=t("Born (YYYY-MM-DD or year, optional)"),
            value=(player["born"] or "") if new_born is None else new_born,
            on_change=lambda e: set_new_born(e.control.value),
        ),
        error_box(problems),
        ft.Row(
            wrap=True,
            controls=[
                ft.FilledButton(
                    t("Save"),
                    icon=ft.Icons.SAVE,
                    on_click=save,
                    disabled=new_name is None and new_born is None,
                ),
                ft.OutlinedButton(
                    t("Bring back") if player["archived"] else t("Archive"),
                    icon=ft.Icons.ARCHIVE_OUTLINED,
                    on_click=archive,
                ),
            ],
        ),
        note(
            t(
                "Games keep their names; earlier names count here too: {names}",
                names=", ".join(player["former_names"]),
            )
        )
        if player["former_names"]
        else ft.Container(),
        heading(t("Statistics")),
    ]
    stats = player_stats(summaries, names)
    if not stats:
        controls.append(note(t("No finished games yet.")))
    for game, game_stats in sorted(stats.items()):
        controls.append(
            info_box(
                [ft.Text(GAME_TITLES[game], weight=ft.FontWeight.BOLD), *figures(t, game_stats)]
            )
        )
    others = [p for p in everyone if p["id"] != player_id]
    if others:
        controls.append(heading(t("Head to head")))
        controls.append(
            choice_chips(t("Against"), [(p["id"], p["name"]) for p in others], rival, set_rival)
        )
        opponent = next((p for p in others if p["id"] == rival), None)
        if opponent is not None:
            records = head_to_head(summaries, names, [opponent["name"], *opponent["former_names"]])
            controls += duel(t, player["name"], opponent["name"], records)
    return ft.View(
        route=f"/players/{player_id}",
        appbar=back_bar(player["name"], lambda: state.go("/players"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def duel(
    t: Translator, first: str, second: str, records: dict[str, HeadToHead]
) -> list[ft.Control]:
    if not records:
        return [
            note(
                t(
                    "{first} and {second} have not finished a game together.",
                    first=first,
                    second=second,
                )
            )
        ]
    lines: list[ft.Control] = []
    for game, record in sorted(records.items()):
        text = t(
            "{game}: {games} games · {first} ahead {a} · {second} ahead {b} · level {level}",
            game=GAME_TITLES[game],
            games=record.games,
            first=first,
            a=record.first_ahead,
            second=second,
            b=record.second_ahead,
            level=record.level,
        )
        lines.append(ft.Text(text))
    return [info_box(lines)]
