"""Settings: language, theme, and where the data lives."""

from __future__ import annotations

import flet as ft

from .state import AppState
from .widgets import back_bar, body, heading, note


@ft.component
def SettingsView(state: AppState) -> ft.View:
    t = state.t

    def choice(values: list[tuple[str, str]], selected: str, on_pick, name: str) -> ft.Control:
        return ft.SegmentedButton(
            selected=[selected],
            segments=[ft.Segment(value=v, label=ft.Text(label)) for v, label in values],
            on_change=lambda e: on_pick(e.control.selected[0]),
            tooltip=name,
        )

    return ft.View(
        route="/settings",
        appbar=back_bar(t("Settings"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[
            body(
                [
                    heading(t("Language")),
                    choice(
                        [("system", t("System")), ("en", "English"), ("de", "Deutsch")],
                        state.language_setting,
                        state.set_language,
                        t("Language"),
                    ),
                    heading(t("Theme")),
                    choice(
                        [("system", t("System")), ("light", t("Light")), ("dark", t("Dark"))],
                        state.theme_setting,
                        state.set_theme,
                        t("Theme"),
                    ),
                    heading(t("Data")),
                    note(t("Your games are stored in this folder:")),
                    ft.Text(str(state.store.folder), selectable=True),
                ]
            )
        ],
    )
