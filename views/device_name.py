"""This device's name: what the other devices at a shared table call it ("Ben's phone saved deal
4: …"). Asked once, on the device's first scoring action at a shared table, prefilled with what
the browser or system says the device is; changeable in Settings (the host) or from a scorer's
bar; kept on the device (its shared preferences: localStorage in a browser)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scoring import Term
from scoring.errors import N_

from . import buttons
from .safe import from_device
from .state import NAME_KEY, THIS_DEVICE, AppState
from .widgets import close, icon_button, note

# What a device is, from its browser's user agent (first match), else from its platform.
KINDS: list[tuple[str, Term]] = [
    ("iPhone", N_("iPhone")),
    ("iPad", N_("iPad")),
    ("Android", N_("Android phone")),
    ("Windows", N_("Windows computer")),
    ("Macintosh", N_("Mac")),
    ("CrOS", N_("Chromebook")),
    ("Linux", N_("Linux computer")),
]


def device_kind(user_agent: str | None, platform: object) -> Term:
    """What the device is, as far as its browser or system says: "Android phone" (said in
    the language of the moment: `AppState.shown_name`)."""
    told = f"{user_agent or ''} {getattr(platform, 'value', platform) or ''}"
    for marker, kind in KINDS:
        if marker.lower() in told.lower():
            return kind
    return THIS_DEVICE


async def read_name() -> str:
    """The name kept on this device ("" none)."""
    found = await from_device(ft.SharedPreferences().get(NAME_KEY), "the device's name")
    return found.strip() if isinstance(found, str) else ""


def ask_name_if_wanted(state: AppState, then: Callable[[], None] | None = None) -> bool:
    """ "Whose phone is this?", once, on a device's first scoring action at a shared table;
    `then` (the action, a Save say) goes on once it is answered. Whether it was asked (else
    the caller goes on itself)."""
    if not state.name_wanted:
        return False
    ask_name(state, then, on_an_action=True)
    return True


def ask_name(
    state: AppState, then: Callable[[], None] | None = None, on_an_action: bool = False
) -> None:
    state.name_asked = True
    ft.context.page.show_dialog(name_dialog(state, then, on_an_action))


def name_button(state: AppState) -> ft.Control:
    """The way to change this device's name (a scorer's bar)."""
    return icon_button(
        ft.Icons.BADGE_OUTLINED, state.t("This device's name"), lambda: ask_name(state)
    )


def name_dialog(
    state: AppState, then: Callable[[], None] | None = None, on_an_action: bool = False
) -> ft.AlertDialog:
    """The name, prefilled, to save. Asked on a scoring action (`on_an_action`: an entry
    opened, or a Save, then `then`), "Not now" lets the action go on under the suggested name
    ("Cancel" read as if it cancelled the entry); asked to change it, "Cancel" leaves it."""
    t = state.t
    field = ft.TextField(
        label=t("Device name"),
        value=state.shown_name,
        max_length=40,
        autofocus=True,
        on_change=lambda: None,  # the value comes up as it is typed (Save reads it)
        on_submit=lambda: save(),
    )

    def save() -> None:
        if state.set_device_name(field.value or ""):
            close(dialog)
            if then is not None:
                then()

    def skip() -> None:
        close(dialog)
        if then is not None:
            then()

    dialog: ft.AlertDialog = ft.AlertDialog(
        title=ft.Text(t("Whose phone is this?")),
        content=ft.Column(
            tight=True,
            spacing=8,
            controls=[
                note(t("The others at the table see this name when this device saves a round.")),
                field,
            ],
        ),
        actions=[
            buttons.TextButton(t("Not now") if on_an_action else t("Cancel"), on_click=skip),
            buttons.FilledButton(t("Save name"), on_click=lambda: save()),
        ],
    )
    return dialog
