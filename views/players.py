"""Players: the roster, and each player's statistics per game and head to head."""

from __future__ import annotations

from fractions import Fraction

import flet as ft

from scoring.errors import N_
from scoring.stats import HeadToHead, PlayerGameStats, head_to_head, player_stats
from scoring.table import normal_name
from storage.colors import COLORS

from . import buttons, games
from .hooks import NO_TEXT, memo, use_messages, use_value
from .i18n import Translator
from .notices import notices_panel
from .state import REFUSALS, AppState, use_screen
from .theme import player_color
from .widgets import (
    back_bar,
    body,
    choice_chips,
    color_chip,
    error_box,
    heading,
    info_box,
    labelled_chips,
    note,
    toggle_chip,
)


@memo
@ft.component
def PlayersView(state: AppState) -> ft.View:
    t = state.t
    use_screen(state, "/players")
    name, set_name = use_value("")
    born, set_born = use_value("")
    problems, set_problems = use_messages()
    show_archived, set_show_archived = use_value(False)

    def add() -> None:
        try:
            state.add_player(name, born.strip() or None)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        set_problems([])
        set_name("")
        set_born("")

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
        buttons.FilledButton(
            t("Add player"), icon=ft.Icons.PERSON_ADD, disabled=not name.strip(), on_click=add
        ),
        heading(t("Roster")),
    ]
    for player in state.players(include_archived=show_archived):
        subtitle = t("born {date}", date=player["born"]) if player["born"] else ""
        if player["archived"]:
            subtitle = (subtitle + " · " if subtitle else "") + t("archived")
        rows.append(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.PERSON, color=player_color(player["color"], state.dark)),
                title=ft.Text(player["name"]),
                subtitle=ft.Text(subtitle) if subtitle else None,
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                on_click=lambda _e, p=player: state.go(f"/players/{p['id']}"),
            )
        )
    rows.append(
        toggle_chip(
            t("Show archived players"),
            show_archived,
            lambda: set_show_archived(not show_archived),
        )
    )
    return ft.View(
        route="/players",
        appbar=back_bar(t("Players"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body([*notices_panel(state), *rows])],
    )


COLOR_NAMES = {
    "blue": N_("Blue"),
    "orange": N_("Orange"),
    "green": N_("Green"),
    "pink": N_("Pink"),
    "yellow": N_("Yellow"),
    "sky": N_("Sky blue"),
}


def color_picker(state: AppState, player_id: str, chosen: str) -> ft.Control:
    """The player's colour: one tap on another chooses it (saved at once)."""
    t = state.t

    def choose(color: str) -> None:
        if color != chosen:
            state.tried(lambda: state.set_player_color(player_id, color))

    return labelled_chips(
        t("Colour"),
        [
            color_chip(
                ft.Text(
                    t(COLOR_NAMES[color]),
                    semantics_label=t("Colour: {color}", color=t(COLOR_NAMES[color])),
                ),
                color == chosen,
                player_color(color, state.dark),
                on_click=lambda _, color=color: choose(color),
            )
            for color in COLORS
        ],
    )


def percent(t: Translator, value: Fraction | None) -> str:
    return "–" if value is None else f"{t.number(round(float(value) * 100))} %"


def figures(t: Translator, stats: PlayerGameStats) -> list[ft.Control]:
    """One game's figures for one player, each labelled for screen readers and tests."""
    view = games.view_of(stats.game)
    best = t("lowest") if view.rules.lower_is_better else t("highest")
    average, best_is, worst = (
        (t("Average"), t("Best ({which} is best)", which=best), t("Worst"))
        if view.totals_are_scores
        else (t("Average place"), t("Best place"), t("Worst place"))  # SPY: places, no points
    )
    lines = [
        (t("Games"), str(stats.games)),
        (t("Wins"), str(stats.wins)),
        (t("Win rate"), percent(t, stats.win_rate)),
        (average, t.number(round(float(stats.average or 0), 1))),
        (best_is, t.number(stats.best or 0)),
        (worst, t.number(stats.worst or 0)),
        *[(t(view.facts[fact]), str(value)) for fact, value in sorted(stats.facts.items())],
    ]
    return [
        ft.Row(
            [
                ft.Text(label, expand=True),
                ft.Text(
                    value,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=f"{view.title} {label}: {value}",
                ),
            ]
        )
        for label, value in lines
    ]


@memo
@ft.component
def PlayerView(state: AppState, player_id: str) -> ft.View:
    t = state.t
    use_screen(state, f"/players/{player_id}")
    new_name, set_new_name = use_value(NO_TEXT)
    new_born, set_new_born = use_value(NO_TEXT)
    problems, set_problems = use_messages()
    rival, set_rival = use_value(NO_TEXT)
    everyone = state.players(include_archived=True)
    player = next((p for p in everyone if p["id"] == player_id), None)
    if player is None:
        return ft.View(
            route=f"/players/{player_id}",
            appbar=back_bar(t("Players"), lambda: state.go("/players"), t),
            controls=[ft.Text(t("there is no player {player_id}", player_id=player_id))],
        )
    names = [player["name"], *player["former_names"]]
    summaries = state.summaries()

    def save() -> None:
        # Compared as the roster stores names: "Mo" typed with a stray selector is Mo still.
        typed = None if new_name is None else normal_name(new_name)
        renamed = new_name if typed is not None and typed != player["name"] else None
        try:
            state.change_player(player_id, renamed, new_born)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        set_problems([])
        set_new_name(NO_TEXT)
        set_new_born(NO_TEXT)
        state.say(t("Saved."))

    def archive() -> None:
        state.tried(lambda: state.archive_player(player_id, not player["archived"]))

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
                buttons.FilledButton(
                    t("Save"),
                    icon=ft.Icons.SAVE,
                    on_click=save,
                    disabled=new_name is None and new_born is None,
                ),
                buttons.OutlinedButton(
                    t("Bring back") if player["archived"] else t("Archive"),
                    icon=ft.Icons.ARCHIVE_OUTLINED,
                    on_click=archive,
                ),
            ],
        ),
        color_picker(state, player_id, player["color"]),
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
                [
                    ft.Text(games.view_of(game).title, weight=ft.FontWeight.BOLD),
                    *figures(t, game_stats),
                ]
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
        controls=[body([*notices_panel(state), *controls])],
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
            game=games.view_of(game).title,
            games=record.games,
            first=first,
            a=record.first_ahead,
            second=second,
            b=record.second_ahead,
            level=record.level,
        )
        lines.append(ft.Text(text))
    return [info_box(lines)]
