"""Settings: language, theme, where the data lives, and backups (export, import, CSV)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

import flet as ft

import scoring
from storage import backup
from storage.errors import StorageError

from . import buttons
from .device_name import ask_name
from .hooks import memo, use_messages, use_value
from .notices import notices_panel
from .safe import done_on_device, from_device
from .state import AppState, use_screen
from .widgets import back_bar, body, drawn_as, error_box, heading, info_box, note, segmented

NO_PLAN: backup.ImportPlan | None = None  # no file read yet


@memo
@ft.component
def SettingsView(state: AppState) -> ft.View:
    t = state.t
    use_screen(
        state,
        "/settings",
        lambda: state.message,
        lambda: state.theme_setting,
        lambda: state.device_name,
    )
    plan, set_plan = use_value(NO_PLAN)  # an import read from a file, waiting for "Import"
    problems, set_problems = use_messages()

    def choice(
        values: list[tuple[str, str]], selected: str, on_pick: Callable[[str], object], name: str
    ) -> ft.Control:
        return segmented(
            selected=[selected],
            key=drawn_as(name, selected),
            segments=[ft.Segment(value=v, label=ft.Text(label)) for v, label in values],
            on_change=lambda e: on_pick(e.control.selected[0]),
            tooltip=name,
        )

    today = dt.date.today().isoformat()

    async def export_all() -> None:
        document = state.export()
        data = json.dumps(document, ensure_ascii=False, indent=1).encode()
        saving = ft.FilePicker().save_file(file_name=f"debrief-backup-{today}.json", src_bytes=data)
        if not await done_on_device(saving, "saving a backup"):
            return
        made = t.plural(
            "Backup of {count} game made.",
            "Backup of {count} games made.",
            len(scoring.as_list(document["games"])),
        )
        refused = state.needing_correction(document)
        if refused:
            made += " " + t.plural(
                "{count} of them needs a correction: an import refuses it until it is corrected.",
                "{count} of them need a correction: an import refuses them until they are "
                "corrected.",
                len(refused),
            )
        state.say(made)

    async def export_csv() -> None:
        data = state.history_csv().encode()
        saving = ft.FilePicker().save_file(file_name=f"debrief-history-{today}.csv", src_bytes=data)
        await done_on_device(saving, "saving the history as CSV")

    async def choose_file() -> None:
        picking = ft.FilePicker().pick_files(allowed_extensions=["json"], with_data=True)
        files = await from_device(picking, "picking a backup")
        if not files:
            return
        chosen = files[0]
        set_plan(NO_PLAN)
        try:
            data = json.loads((chosen.bytes or b"").decode("utf-8"))
            read = state.plan_import(data, chosen.name)
        except (ValueError, RecursionError):
            set_problems([t("{file} is not a JSON file.", file=chosen.name)])
            return
        except StorageError as error:
            set_problems([t.problem(error)])
            return
        if not read.ok:
            shown = [
                t.problem(e) if not e.path else f"{e.path}: {t.problem(e)}" for e in read.errors[:8]
            ]
            more = len(read.errors) - len(shown)
            set_problems(
                [
                    t("{file} was not imported; nothing was changed:", file=chosen.name),
                    *shown,
                    *(
                        [t.plural("… and {count} more", "… and {count} more", more)]
                        if more > 0
                        else []
                    ),
                ]
            )
            return
        set_problems([])
        set_plan(read)

    def do_import() -> None:
        if plan is None:
            return
        added = state.attempt(lambda: state.apply_import(plan))
        if added is None:
            return
        state.say(
            t(
                "Imported {games} games and {players} players.",
                games=added,
                players=len(plan.players),
            )
        )
        set_plan(NO_PLAN)

    controls: list[ft.Control] = [
        heading(t("Language")),
        choice(
            [("system", t("System")), ("en", "English"), ("de", "Deutsch")],
            state.language_setting,
            lambda value: state.attempt(lambda: state.set_language(value)),
            t("Language"),
        ),
        heading(t("Theme")),
        choice(
            [("system", t("System")), ("light", t("Light")), ("dark", t("Dark"))],
            state.theme_setting,
            lambda value: state.attempt(lambda: state.set_theme(value)),
            t("Theme"),
        ),
        heading(t("This device")),
        note(t("What the others at a shared table see when this device saves a round.")),
        ft.Row(
            wrap=True,
            controls=[
                ft.Text(state.shown_name, weight=ft.FontWeight.BOLD),
                buttons.OutlinedButton(
                    t("Change name"), icon=ft.Icons.BADGE_OUTLINED, on_click=lambda: ask_name(state)
                ),
            ],
        ),
        heading(t("Backup and move")),
        note(t("One file with every game and player, to keep or to take to another device.")),
        ft.Row(
            wrap=True,
            controls=[
                buttons.FilledButton(
                    t("Export everything"), icon=ft.Icons.DOWNLOAD, on_click=export_all
                ),
                buttons.OutlinedButton(
                    t("Import a file"), icon=ft.Icons.UPLOAD, on_click=choose_file
                ),
                buttons.OutlinedButton(
                    t("History as CSV"), icon=ft.Icons.TABLE_CHART, on_click=export_csv
                ),
            ],
        ),
        error_box(problems),
    ]
    if state.message:
        controls.append(note(state.message))
    if plan is not None:
        controls.append(
            info_box(
                [
                    ft.Text(
                        t(
                            "{file}: adds {games} games and {players} players; {skipped} games are "
                            "already here and are skipped.",
                            file=plan.source,
                            games=len(plan.games),
                            players=len(plan.players),
                            skipped=len(plan.skipped),
                        ),
                        weight=ft.FontWeight.BOLD,
                    ),
                    ft.Row(
                        [
                            buttons.FilledButton(
                                t("Import"),
                                icon=ft.Icons.CHECK,
                                on_click=do_import,
                                disabled=not plan.games and not plan.players,
                            ),
                            buttons.TextButton(t("Cancel"), on_click=lambda: set_plan(NO_PLAN)),
                        ]
                    ),
                ]
            )
        )
    controls += [
        heading(t("Data")),
        note(t("Your games are stored in this folder:")),
        ft.Text(str(state.data_folder), selectable=True),
    ]
    kept_aside = state.kept_aside
    if kept_aside:
        controls += [
            note(
                t(
                    "Kept aside after damage, in that folder (Debrief does not use them; "
                    "games missing since come back with a backup's import):"
                )
            ),
            *[ft.Text(name, selectable=True) for name in kept_aside],
        ]
    return ft.View(
        route="/settings",
        appbar=back_bar(t("Settings"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body([*notices_panel(state), *controls])],
    )
