"""History: every game, newest first, with filters; and a game's own page with its chart."""

from __future__ import annotations

import datetime as dt
import json

import flet as ft

import scoring
from scoring.errors import Term
from storage import backup
from storage.errors import StorageError
from storage.summaries import Summary

from . import buttons, games
from .charts import totals_chart
from .frame import correction_banner
from .games import AtTable
from .hooks import NO_TEXT, memo, use_value
from .i18n import Translator, minutes_between
from .notices import notices_panel, sentence
from .result import game_over_panel, play_again
from .safe import done_on_device
from .state import AppState, use_screen
from .widgets import back_bar, body, choice_chips, heading, info_box, note

PAGE_SIZE = 40
ALL = "*"


def parse_time(text: str | None) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def when(t: Translator, summary: Summary) -> str:
    """The day the game began, as its result card says it ("27 Nov 2026")."""
    started = parse_time(summary.started)
    return t.day(started) if started else "?"


def day_stamp(summary: Summary) -> str:
    """The day the game began for a file name ("2026-11-27")."""
    started = parse_time(summary.started)
    return started.strftime("%Y-%m-%d") if started else "undated"


def length(t: Translator, summary: Summary) -> str | None:
    """How long the game took, when it has a start and an end."""
    minutes = minutes_between(summary.started, summary.ended)
    return None if minutes is None else t.duration(minutes)


def outcome(t: Translator, summary: Summary) -> str:
    fix_round = summary.needs_correction
    if fix_round is not None:
        return t("Round {number} needs a correction", number=fix_round + 1)
    if summary.active:
        return t("in progress")
    if summary.winners:
        return t("won by {names}", names=", ".join(summary.winners))
    return t("no winner") if summary.finished else t("not finished")


@memo
@ft.component
def HistoryView(state: AppState) -> ft.View:
    t = state.t
    use_screen(state, "/history")
    game, set_game = use_value(ALL)
    player, set_player = use_value(ALL)
    shown, set_shown = use_value(PAGE_SIZE)
    summaries = state.summaries(
        game=None if game == ALL else game, player=None if player == ALL else player
    )
    roster = [p["name"] for p in state.players(include_archived=True)]
    views = games.load()

    def pick_game(value: str) -> None:
        set_game(value)
        set_shown(PAGE_SIZE)

    def pick_player(value: str) -> None:
        set_player(value)
        set_shown(PAGE_SIZE)

    items: list[ft.Control] = [
        choice_chips(
            t("Game"),
            [(ALL, t("All games")), *((v.id, v.title) for v in views.values())],
            game,
            pick_game,
        ),
        choice_chips(
            t("Player"), [(ALL, t("Everyone")), *[(n, n) for n in roster]], player, pick_player
        ),
        note(t.plural("{count} game", "{count} games", len(summaries))),
    ]
    for summary in summaries[:shown]:  # built page by page: 10,000 games stay quick
        details = [when(t, summary), games.view_of(summary.game).counted(t, summary.rounds)]
        if length(t, summary):
            details.append(length(t, summary) or "")
        details.append(outcome(t, summary))
        items.append(
            ft.ListTile(
                leading=ft.Icon(views[summary.game].icon),
                title=ft.Text(f"{views[summary.game].title} · {', '.join(summary.players)}"),
                subtitle=ft.Text(" · ".join(details)),
                on_click=lambda _e, s=summary: state.go(f"/history/{s.id}"),
            )
        )
    if len(summaries) > shown:
        items.append(
            buttons.OutlinedButton(
                t.plural(
                    "Show more ({count} left)", "Show more ({count} left)", len(summaries) - shown
                ),
                on_click=lambda: set_shown(shown + PAGE_SIZE),
            )
        )
    if not summaries:
        items.append(note(t("No games yet.")))
    deleted = state.summaries(deleted=True)
    if deleted:
        items.append(heading(t("Deleted games")))
        for summary in deleted[:PAGE_SIZE]:
            items.append(
                ft.ListTile(
                    title=ft.Text(f"{views[summary.game].title} · {', '.join(summary.players)}"),
                    subtitle=ft.Text(when(t, summary)),
                    trailing=buttons.TextButton(
                        t("Restore"), on_click=lambda _e, s=summary: restore(state, s)
                    ),
                )
            )
    return ft.View(
        route="/history",
        appbar=back_bar(t("History"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body([*notices_panel(state), *items], spacing=4)],
    )


def restore(state: AppState, summary: Summary) -> None:
    state.tried(lambda: state.restore_game(summary.id))


# --- one game's page ---------------------------------------------------------------------------


def rounds_table(t: Translator, result: scoring.Replay, round_name: Term) -> ft.Control:
    """The totals after each round (the chart's numbers), a row a round: "after deal 3"."""
    names = list(result.table.names)
    rows = [
        ft.DataRow(
            cells=[
                ft.DataCell(ft.Text(t(round_name, number=i + 1))),
                *[ft.DataCell(ft.Text(t.number(totals[n]))) for n in names],
            ]
        )
        for i, totals in enumerate(result.round_totals)
    ]
    return ft.Row(
        scroll=ft.ScrollMode.AUTO,
        controls=[
            ft.DataTable(
                columns=[
                    ft.DataColumn(
                        label=ft.Text(
                            t("Places after") if result.rules.places_only else t("Totals after")
                        )
                    ),
                    *[ft.DataColumn(label=ft.Text(n), numeric=True) for n in names],
                ],
                rows=rows,
                column_spacing=16,
                horizontal_margin=8,
            )
        ],
    )


def continue_label(t: Translator, active: bool, finished: bool, fix_round: int | None) -> str:
    if fix_round is not None:
        return t("Correct round {number}", number=fix_round + 1)
    return t("Continue") if active or not finished else t("Open at the table")


@memo
@ft.component
def GamePageView(state: AppState, game_id: str) -> ft.View:
    t = state.t
    use_screen(state, f"/history/{game_id}")
    notes, set_notes = use_value(NO_TEXT)
    try:
        game = state.game_at(game_id)
        stored, result, correction = game.record, game.result, game.correction
        record = scoring.game_record(stored)
    except (StorageError, scoring.InvalidRecord) as error:
        problems = error.errors if isinstance(error, scoring.InvalidRecord) else [error]
        return ft.View(
            route=f"/history/{game_id}",
            appbar=back_bar(t("Game"), lambda: state.go("/history"), t),
            controls=[
                *notices_panel(state),  # why, when reading it found its file damaged
                *[ft.Text(sentence(t.problem(problem))) for problem in problems],
            ],
        )
    fix_round = None if correction is None else correction.round
    summary = state.summary(game_id)
    active = summary.active
    title = games.view_of(record["game"]).title

    def save_notes(value: str) -> None:
        if state.tried(lambda: state.set_notes(game_id, value)):
            state.say(t("Notes saved."))

    def continue_game() -> None:
        """A finished game opens as it is, read-only (it stays in the history); an abandoned
        one comes back to the table to be continued."""
        finished = result.finished and fix_round is None
        if not active and not finished and not state.tried(lambda: state.reopen(game_id)):
            return
        state.go(f"/game/{game_id}")

    def delete() -> None:
        if not state.tried(lambda: state.delete_game(game_id)):
            return
        state.say_undoable(
            t("Game deleted; History lists it under Deleted games to restore."), undo_delete
        )
        state.go("/history")

    def undo_delete() -> None:
        if state.tried(lambda: state.restore_game(game_id)):
            state.say(t("Game restored."))

    async def export(kind: str) -> None:
        stem = f"debrief-{record['game']}-{day_stamp(summary)}"
        if kind == "json":
            data = json.dumps(state.export(game_id), ensure_ascii=False, indent=1).encode()
            saving = ft.FilePicker().save_file(file_name=f"{stem}.json", src_bytes=data)
            if await done_on_device(saving, "saving a game") and fix_round is not None:
                state.say(
                    t("This game needs a correction: an import refuses it until it is corrected.")
                )
        else:
            data = backup.csv_of_game(stored).encode()
            saving = ft.FilePicker().save_file(file_name=f"{stem}.csv", src_bytes=data)
            await done_on_device(saving, "saving a game as CSV")

    view = games.view_of(record["game"])
    colors = games.seated_colors(state, game_id)
    facts = [when(t, summary), view.counted(t, summary.rounds)]
    if length(t, summary):
        facts.append(length(t, summary) or "")
    facts.append(outcome(t, summary))
    totals = result.totals
    controls: list[ft.Control] = [
        ft.Text(
            f"{title} · {', '.join(result.table.names)}",
            theme_style=ft.TextThemeStyle.TITLE_LARGE,
        ),
        note(" · ".join(facts)),
        *correction_banner(t, fix_round),
    ]
    if result.finished and fix_round is None:  # its result, with Play again and Share
        at = AtTable(state, game_id, record, result, fix_round, colors)
        controls.append(game_over_panel(at, on_its_page=True))
    else:
        controls.append(
            info_box(
                [
                    ft.Text(
                        t("{name}: {points}", name=n, points=t.number(totals[n])),
                        weight=ft.FontWeight.BOLD if n in result.winners else None,
                    )
                    for n in result.ranking  # the leaders first, then the game's own order
                ]
            )
        )
    if result.round_totals:
        controls += [
            heading(t(view.chart_title)),
            totals_chart(t, result, t(view.chart_title), view.round_name, colors),
            rounds_table(t, result, view.round_name),
        ]
    controls += [
        heading(t("Notes")),
        ft.TextField(
            value=record.get("meta", {}).get("notes", "") if notes is None else notes,
            multiline=True,
            min_lines=2,
            label=t("Notes"),
            on_change=lambda e: set_notes(e.control.value),
            on_blur=lambda e: save_notes(e.control.value),
        ),
        ft.Row(
            wrap=True,
            controls=[
                buttons.FilledButton(
                    continue_label(t, active, result.finished, fix_round),
                    icon=ft.Icons.PLAY_ARROW,
                    on_click=continue_game,
                ),
                *(
                    []
                    if result.finished
                    else [
                        buttons.OutlinedButton(
                            t("Play again"),
                            icon=ft.Icons.REPLAY,
                            on_click=lambda: play_again(state, game_id),
                        )
                    ]
                ),
                buttons.OutlinedButton(
                    t("Export game"), icon=ft.Icons.DOWNLOAD, on_click=lambda: export("json")
                ),
                buttons.OutlinedButton(
                    t("Export as CSV"), icon=ft.Icons.TABLE_CHART, on_click=lambda: export("csv")
                ),
                buttons.TextButton(t("Delete game"), icon=ft.Icons.DELETE_OUTLINE, on_click=delete),
            ],
        ),
    ]
    return ft.View(
        route=f"/history/{game_id}",
        appbar=back_bar(t("Game"), lambda: state.go("/history"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body([*notices_panel(state), *controls])],
    )
