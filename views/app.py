"""The app: one `AppState`, and the screens stacked by route (phone-style back navigation)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable

import flet as ft

from storage import Store
from storage.errors import StorageError
from web.guard import GUEST, Caller, current_caller
from web.guard import HOST as HOST_CALLER
from web.sharing import Sharing

from . import (
    diffing,
    games,
    guest,
    history,
    home,
    new_game,
    players,
    safe,
    settings,
    statistics,
    table,
    year,
)
from .device_name import device_kind, read_name
from .hooks import use_follow, use_latest, use_made
from .safe import done_on_device, from_device
from .state import HOST, SCORER, VIEWER, AppState
from .theme import DARK, LIGHT, theme

# Flet imports the module of a control at the first use of its name (its package's
# __getattr__). Those the first screen uses are imported with the app, before a page asks:
# while its first screen waited for them, a phone waited 170 ms of CPU more on a computer and
# three times that in the static site's Python (tests/test_first_screen.py).
FIRST_SCREEN = (
    ft.Column,
    ft.Divider,
    ft.FilledButton,
    ft.Icon,
    ft.IconButton,
    ft.Icons,
    ft.ListTile,
    ft.OutlinedButton,
    ft.ResponsiveRow,
    ft.Row,
    ft.SafeArea,
    ft.SharedPreferences,
    ft.SnackBar,
    ft.Text,
    ft.TextField,
    ft.Theme,
    ft.use_ref,
    ft.use_state,
)

DEVICE_KEY = "debrief.device"
DEVICE_ID = re.compile(r"^[0-9a-f]{32}$")  # uuid4().hex: what `device_id` makes
# Shown before the guest's language is known (a refused session gets no more than this).
GUEST_REFUSED = (
    "This table is not shared any more, or too many phones are connected to it: ask the host. "
    "\n\nDieser Tisch wird nicht mehr geteilt, oder zu viele Handys sind verbunden: frag "
    "den Gastgeber."
)


def round_name_of(game: str) -> str:
    """How a game calls a round ("deal {number}"): `AppState` names the round in its note of a
    change another tab or device made first, and the games' views, who know it, stand above it."""
    return games.view_of(game).round_name


def screens_for(state: AppState) -> list[ft.View]:
    """The stack of views for the current route: home at the bottom, the open screen on top."""
    if state.role != HOST:
        return guest_screens(state)
    stack = [home.HomeView(state)]
    route = state.route
    if route.startswith("/game/"):
        state.show_to_guests(route.removeprefix("/game/"))
    if route == "/new":
        stack.append(new_game.NewGameView(state))
    elif route.startswith("/game/"):
        stack.append(table.GameScreen(state, route.removeprefix("/game/")))
    elif route == "/settings":
        stack.append(settings.SettingsView(state))
    elif route == "/history":
        stack.append(history.HistoryView(state))
    elif route.startswith("/history/"):
        stack += [
            history.HistoryView(state),
            history.GamePageView(state, route.removeprefix("/history/")),
        ]
    elif route == "/stats":
        stack.append(statistics.StatisticsView(state))
    elif route == "/stats/year":
        stack += [statistics.StatisticsView(state), year.YearView(state)]
    elif route == "/players":
        stack.append(players.PlayersView(state))
    elif route.startswith("/players/"):
        stack += [
            players.PlayersView(state),
            players.PlayerView(state, route.removeprefix("/players/")),
        ]
    return stack


def guest_screens(state: AppState) -> list[ft.View]:
    """A guest of a shared table sees the game the host has open, and nothing else."""
    if state.access_ended:
        return [guest.EndedView(state)]
    if state.asking_pin:
        return [guest.PinView(state)]
    game_id = state.followed_game
    if game_id is None:
        return [guest.WaitingView(state)]
    return [table.GameScreen(state, game_id)]


def stack_of(state: AppState) -> tuple[object, ...]:
    """What decides the app's stack of screens and its look: the app is drawn again when it
    changes (each screen follows its own data, `state.use_screen`)."""
    return (
        state.route,
        state.role,
        state.asking_pin,
        state.role != HOST and state.followed_game,
        state.role != HOST and state.access_ended,
        state.language,
        state.theme_setting,
    )


@ft.component
def App(store: Store, device: str, sharing: Sharing | None, caller: Caller) -> list[ft.View]:
    """The app for one session. `caller` is who connected, as the guard saw it: the session's
    role and address, fixed here for its whole life (a page's fields are the client's to
    rewrite, so none of them decides anything)."""
    page = ft.context.page

    def load() -> AppState:
        role = HOST
        if caller.role == GUEST:
            scorer = sharing is not None and sharing.is_scorer(device, caller.address)
            role = SCORER if scorer else VIEWER
        route = page.route or "/"
        made = AppState.load(
            store,
            route,
            device,
            page.session.id,
            page,
            role,
            sharing,
            caller.address,
            round_name_of=round_name_of,
        )
        made.device_languages = list(caller.languages)  # a guest's own language (the host's:
        # its setting, or these when it is "system")
        made.device_kind = device_kind(page.client_user_agent, page.platform)
        made.platform_dark = page.platform_brightness == ft.Brightness.DARK
        return made

    state, _ = use_made(load)
    use_follow(state, lambda: stack_of(state))

    async def load_name() -> None:  # after the first drawing: no wait before it
        state.named(await read_name())

    def start_loading_name() -> None:
        page.run_task(load_name)

    ft.use_effect(start_loading_name, [])
    ft.use_effect(state.route_drawn, [state.route])  # after the screen's drawing

    # The page's handlers are the same functions at every drawing (`use_latest`): a function
    # made anew is a changed property of the page, whose patch made the browser build every
    # screen of the stack again at each change of screen.
    def on_route_change(event: ft.RouteChangeEvent) -> None:
        state.followed(event.route)

    def on_view_pop(event: ft.ViewPopEvent) -> None:
        state.back()

    def on_brightness(event: ft.PlatformBrightnessChangeEvent) -> None:
        state.platform_dark = device_is_dark(event)

    def on_locale(event: ft.LocaleChangeEvent) -> None:
        state.device_languages = [str(getattr(loc, "language_code", loc)) for loc in event.locales]

    def on_connect(event: ft.Event[ft.Page]) -> None:
        state.reconnected()

    safe.watch(
        page,
        lambda: state.t(
            "Something went wrong on this screen. Your games are safe; if it happens again, "
            "go back and open the screen once more."
        ),
    )
    page.on_route_change = use_latest(on_route_change)
    page.on_view_pop = use_latest(on_view_pop)
    page.on_locale_change = use_latest(on_locale)
    page.on_platform_brightness_change = use_latest(on_brightness)
    page.on_connect = use_latest(on_connect)
    page.theme_mode = state.theme_mode
    page.title = "Debrief"
    return screens_for(state)


def device_is_dark(event: object) -> bool:
    """Whether a change of the device's brightness made it dark. Flet's web client sends the
    brightness's name alone ("dark"), which Flet hands on as a plain event with that name as
    its `data`; a PlatformBrightnessChangeEvent has it as `brightness`."""
    said = getattr(event, "brightness", None) or getattr(event, "data", None)
    return str(getattr(said, "value", said)) == ft.Brightness.DARK.value


def make_main(
    data_dir: str | None, sharing: Sharing | None = None
) -> Callable[[ft.Page], Awaitable[None]]:
    """The Flet entry point for a data folder (and, with `sharing`, a table shared on the
    local network)."""

    safe.install()
    diffing.install()

    async def main(page: ft.Page) -> None:
        # Decided before anything else, while nothing the client sent has been read: a page
        # field rewritten during the first await below must not matter.
        caller = current_caller() or Caller(HOST_CALLER, "")  # unguarded: the window, a phone
        page.theme = theme(LIGHT)
        page.dark_theme = theme(DARK)
        if caller.role == GUEST and not await admitted(page, sharing, caller):
            return
        try:
            store = Store.open(data_dir)
        except StorageError as error:
            # Selectable (a folder's path to copy), and read out: a selectable text has no
            # label of its own for a screen reader.
            page.add(
                ft.SafeArea(ft.Text(error.message, selectable=True, semantics_label=error.message))
            )
            return
        device = await device_id()
        if device is None:  # the tab went before it said which device it is
            return
        page.render_views(App, store, device, sharing, caller)

    return main


async def admitted(page: ft.Page, sharing: Sharing | None, caller: Caller) -> bool:
    """Whether a guest's new session may stay (the table is shared, and its phone and the table
    have sessions to spare); if not, it is told so in both languages and gets nothing else."""
    if sharing is not None and await sharing.admit(page.session, caller.address):
        return True
    page.add(ft.SafeArea(ft.Text(GUEST_REFUSED, selectable=True)))
    return False


async def device_id() -> str | None:
    """This browser profile's or app install's id (drafts and undo belong to it), kept in its
    shared preferences (localStorage on the web, so each origin is a device of its own); None
    when the tab went before it answered."""
    preferences = ft.SharedPreferences()
    found = await from_device(preferences.get(DEVICE_KEY), "the device's id")
    # What a client says is its own: an id is a key of the device's drafts and undo, stored
    # and kept, so only one of the shape made here is taken (else the device gets one).
    if isinstance(found, str) and DEVICE_ID.match(found):
        return found
    made = uuid.uuid4().hex
    if not await done_on_device(preferences.set(DEVICE_KEY, made), "the device's id"):
        return None
    return made
