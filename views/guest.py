"""A guest at a shared table: the game the host has open, live; with the PIN, entering it too.

A guest's screen is that game only: no home, history, roster, backups or settings. A viewer sees
it read-only (`AtTable.read_only`); "Score" asks for the PIN, typed on a keypad, and makes this
tab a scorer, who enters and corrects rounds and undoes its own changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace

import flet as ft

from scoring.errors import N_
from web.sharing import Connected

from . import buttons
from .device_name import name_button
from .hooks import memo, use_value
from .i18n import Translator
from .state import VIEWER, AppState, use_screen
from .widgets import TARGET, body, close, heading, note, qr_code

PIN_LENGTH = 6


def share_panel(state: AppState) -> Callable[[], None]:
    """The host's "Share this table": before sharing, what it means and a way to start; while
    sharing, the link as a QR code and as text, the PIN, and the way to stop."""

    def show() -> None:
        sharing = state.sharing
        if sharing is None:
            return
        page = ft.context.page
        page.show_dialog(shared_dialog(state) if sharing.link else start_dialog(state))

    return show


def start_dialog(state: AppState) -> ft.AlertDialog:
    t = state.t
    page = ft.context.page

    async def start() -> None:
        close(dialog)
        if await state.start_sharing():
            page.show_dialog(shared_dialog(state))

    dialog: ft.AlertDialog = ft.AlertDialog(
        title=ft.Text(t("Share this table")),
        content=ft.Column(
            tight=True,
            spacing=8,
            controls=[
                note(
                    t(
                        "Phones on this network can then watch this game live, and enter "
                        "its rounds with a PIN. Nothing is shared until you start."
                    )
                ),
                note(plain_http_warning(t)),
            ],
        ),
        actions=[
            buttons.TextButton(t("Cancel"), on_click=lambda: close(dialog)),
            buttons.FilledButton(t("Start sharing"), icon=ft.Icons.WIFI_TETHERING, on_click=start),
        ],
    )
    return dialog


def shared_dialog(state: AppState) -> ft.AlertDialog:
    t = state.t
    sharing = state.sharing
    link = sharing.link if sharing is not None else None
    pin = sharing.pin if sharing is not None else ""

    async def stop() -> None:
        close(dialog)
        await state.stop_sharing()

    code = qr_code(link or "", "m", scale=6)
    phones, stop_following = connected_phones(state)
    wrong = sharing.wrong_pins() if sharing is not None else []
    tries = (
        [
            note(
                t.plural(
                    "{count} wrong PIN, the last from {address}.",
                    "{count} wrong PINs, the last from {address}.",
                    len(wrong),
                    address=wrong[-1].address,
                )
            )
        ]
        if wrong
        else []
    )
    dialog: ft.AlertDialog = ft.AlertDialog(
        title=ft.Text(t("Sharing this table")),
        on_dismiss=lambda: stop_following(),
        content=ft.Column(
            tight=True,
            # Scrolls when it grows (a phone ending its access): it never runs over the buttons.
            scroll=ft.ScrollMode.AUTO,
            spacing=8,
            controls=[
                note(t("Phones on this network open the link (or scan the code):")),
                ft.Image(src=code, width=240, height=240),
                # The address and the secret on lines of their own: the whole link in one
                # unbreakable line was cut off at the dialog's edge.
                # Selectable text is not in the accessibility tree: its label is given.
                ft.Text(
                    (link or "").replace("/?", "/\n?"),
                    selectable=True,
                    size=13,
                    semantics_label=link,
                ),
                ft.Text(t("PIN for scorers"), weight=ft.FontWeight.BOLD),
                ft.Text(
                    pin,
                    size=32,
                    weight=ft.FontWeight.BOLD,
                    selectable=True,
                    semantics_label=t("PIN {pin}", pin=" ".join(pin)),
                ),
                *tries,
                ft.Text(t("Phones connected"), weight=ft.FontWeight.BOLD),
                phones,
                note(plain_http_warning(t)),
            ],
        ),
        actions=[
            buttons.TextButton(
                t("Stop sharing"), icon=ft.Icons.STOP_CIRCLE_OUTLINED, on_click=stop
            ),
            buttons.TextButton(t("Close"), on_click=lambda: close(dialog)),
        ],
    )
    return dialog


ROLE_NAMES = {"scorer": N_("scorer"), "viewer": N_("viewer")}


def connected_phones(state: AppState) -> tuple[ft.Column, Callable[[], None]]:
    """The host's list of the phones on the shared table, named, each a viewer or a scorer,
    with a way to end one phone's access (asked once more: it stays out until a new share).
    It follows phones coming, going, named and scoring while the panel is open; the second
    value stops that (when the panel closes). Not a component: the panel is made by a tap."""
    t = state.t
    column = ft.Column(spacing=4, tight=True)
    ending = [""]  # the device whose end is being confirmed

    def fill() -> None:
        phones = told_apart(t, state.connected_phones)
        column.controls = [row(phone) for phone in phones] or [note(t("No phone has joined yet."))]

    def redraw() -> None:
        fill()
        column.update()

    def confirming(device: str) -> Callable[[], None]:
        def confirm() -> None:
            ending[0] = device
            redraw()

        return confirm

    def ender(device: str) -> Callable[[], Awaitable[None]]:
        async def end() -> None:
            ending[0] = ""
            await state.end_access(device)  # the list follows (`guests_seen`)

        return end

    def row(phone: Connected) -> ft.Control:
        name = phone.name
        if ending[0] == phone.device:
            return ft.Column(
                spacing=4,
                controls=[
                    ft.Text(t("End {name}'s access until a new share?", name=name)),
                    ft.Row(
                        wrap=True,
                        controls=[
                            buttons.FilledButton(t("End access"), on_click=ender(phone.device)),
                            buttons.TextButton(t("Cancel"), on_click=confirming("")),
                        ],
                    ),
                ],
            )
        return ft.Row(
            controls=[
                ft.Text(
                    t("{name}, {role}", name=name, role=t(ROLE_NAMES[phone.role])), expand=True
                ),
                buttons.TextButton(
                    t("End access"),
                    tooltip=t("End {name}'s access", name=name),
                    on_click=confirming(phone.device),
                ),
            ]
        )

    def heard(field: str) -> None:
        if field == "guests_seen":
            try:
                redraw()
            except RuntimeError:  # the panel has gone
                stop()

    fill()
    stop = state.listen(heard)
    return column, stop


def told_apart(t: Translator, phones: list[Connected]) -> list[Connected]:
    """The phones, those of the same name (two unnamed "Android phone"s) numbered in the
    order they came: "Android phone (2)"."""
    counts = Counter(phone.name for phone in phones)
    seen: Counter[str] = Counter()
    apart = []
    for phone in phones:
        seen[phone.name] += 1
        name = phone.name or t("A phone")
        if counts[phone.name] > 1:
            name = t("{name} ({number})", name=name, number=seen[phone.name])
        apart.append(replace(phone, name=name))
    return apart


def plain_http_warning(t: Translator) -> str:
    return t(
        "Plain HTTP on this network: anyone here who gets the link can watch; only the PIN "
        "lets a phone enter rounds. Stopping sharing ends every link and PIN."
    )


def guest_bar(state: AppState, title: str, actions: list[ft.Control]) -> ft.AppBar:
    """A guest's bar: the game's title, no way back to the host's app; a viewer may ask to
    score."""
    t = state.t
    if state.role == VIEWER and state.host_moved_on is None:  # (not for a game left behind)
        actions = [
            *actions,
            buttons.TextButton(t("Score"), icon=ft.Icons.DIALPAD, on_click=lambda: state.ask_pin()),
        ]
    else:  # a scorer: the phone's name, as the others see it on what it saves
        actions = [*actions, name_button(state)]
    return ft.AppBar(title=ft.Text(title), automatically_imply_leading=False, actions=actions)


@memo
@ft.component
def WaitingView(state: AppState) -> ft.View:
    """A guest before the host has opened a game."""
    t = state.t
    use_screen(state, "/")
    return told_view(
        guest_bar(state, "Debrief", []),
        t("Waiting for the host"),
        t("The game appears here as soon as the host opens it."),
    )


@memo
@ft.component
def EndedView(state: AppState) -> ft.View:
    """A guest whose access the host ended: that, and how to come back."""
    t = state.t
    use_screen(state, "/")
    return told_view(
        ft.AppBar(title=ft.Text("Debrief"), automatically_imply_leading=False),
        t("The host ended this phone's access"),
        t("To join again, ask the host to share the table anew."),
    )


def told_view(bar: ft.AppBar, title: str, text: str) -> ft.View:
    """A guest's screen that only tells something: a heading and a line under it."""
    return ft.View(route="/", appbar=bar, controls=[body([heading(title), note(text)])])


@memo
@ft.component
def PinView(state: AppState) -> ft.View:
    """Six digits on a keypad (no system keyboard); the sixth tries them."""
    t = state.t
    use_screen(state, "/pin")
    typed, set_typed = use_value("")
    said, set_said = use_value("")

    def press(digit: str) -> None:
        entered = typed + digit
        if len(entered) < PIN_LENGTH:
            set_typed(entered)
            return
        set_typed("")
        result = state.try_pin(entered)
        if result == "wrong":
            set_said(t("That is not the PIN. Ask the host for it."))
        elif result == "locked":
            set_said(t("Too many wrong PINs: wait a minute, then try again."))

    def key(face: ft.Control, on_click: Callable[[], None]) -> ft.Control:
        return ft.Container(
            buttons.FilledTonalButton(content=face, height=TARGET + 16, on_click=on_click),
            expand=True,
        )

    def digit(d: str) -> ft.Control:
        return key(ft.Text(d, size=24), lambda: press(d))

    rows = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
    pad: list[ft.Control] = [ft.Row([digit(d) for d in row], spacing=8) for row in rows]
    pad.append(
        ft.Row(
            [
                key(
                    ft.Icon(ft.Icons.BACKSPACE_OUTLINED, semantics_label=t("Delete a digit")),
                    lambda: set_typed(typed[:-1]),
                ),
                digit("0"),
                key(
                    ft.Icon(ft.Icons.CLOSE, semantics_label=t("Cancel")),
                    lambda: state.stop_asking_pin(),
                ),
            ],
            spacing=8,
        )
    )
    dots = ft.Semantics(
        label=t.plural("{count} of 6 digits typed", "{count} of 6 digits typed", len(typed)),
        content=ft.Row(
            [
                ft.Icon(ft.Icons.CIRCLE if i < len(typed) else ft.Icons.CIRCLE_OUTLINED, size=24)
                for i in range(PIN_LENGTH)
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        ),
    )
    return ft.View(
        route="/pin",
        appbar=ft.AppBar(title=ft.Text(t("Score")), automatically_imply_leading=False),
        controls=[
            body(
                [
                    heading(t("The host's PIN")),
                    note(t("With it, this phone can enter and correct the game's rounds.")),
                    dots,
                    ft.Text(said, color=ft.Colors.ERROR),
                    *pad,
                ]
            )
        ],
    )
