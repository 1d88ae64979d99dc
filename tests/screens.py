"""The app's screens played in-process, without a browser: the screen tests' harness.

A `Table` is what `python main.py --web` serves, minus the web server: the app's own `main`
(`views.app.make_main`) on a data folder, run in Flet's own `Session` objects on an event loop
of the test's. Each `Screen` is one device's tab: a Flet connection that answers the app's
calls to the device as Flet's web client does (its shared preferences, the browser's address,
a file saved or picked) and sends the events a finger's tap makes there (a button's "click", a
chip's "select" with its new state, a text field's new value and "change"). Nothing is drawn:
what a screen shows is read from the controls the app built, named as Flutter's accessibility
tree names them for the browser tests (a button by the texts inside it, one per line; a text
by its `semantics_label`, else its value).

What this tier drives is all of the app's own code: its components, their hooks and
redrawing, the rules behind every entry, the storage, and the patches Flet sends a client.
What it cannot see is Flutter's: a drawing, a lost tap, a control off the screen or too small.
Those are the browser tests' (`tests/test_e2e_*.py`, which also play each game through once).
A screen test costs a few hundred milliseconds of CPU where a browser test cost seconds
(docs/testing.md).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from web.guard import GUEST, HOST, Caller, _caller
from web.limits import GUEST_SESSION_SECONDS
from web.sharing import GuestSession, Sharing

logger = logging.getLogger("screens")

# What Flet's web client tells the server of a phone's page when it registers (400×800).
PHONE_PAGE: dict[str, Any] = {
    "route": "/",
    "platform": "android",
    "width": 400.0,
    "height": 800.0,
    "web": True,
    "pwa": False,
    "debug": False,
    "wasm": True,
    "test": False,
    "multi_view": False,
    "platform_brightness": "light",
    "media": {},
    "window": {},
}
USER_AGENT = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/140.0 Mobile Safari/537.36"
# How long a step on the app's loop may take before the test fails (a hang, not a wait).
RUN_S = 60
# A screen is settled once the loop has had nothing to run for this many turns in a row.
QUIET_TURNS = 3
# ... and it gives up (a screen that never stops changing) after this many.
MOST_TURNS = 20_000
# How long the server keeps a session whose page went, for its tab to come back (a reload):
# flet_web's default, which the host's app keeps.
SESSION_KEPT = 3600
# Who the guard says connected (web/guard.py's `Caller`, handed to the session as web/serve.py's
# guard hands it): the host's browser on this computer, and a guest's phone on the local network
# (a documentation address), each asking for English (Chromium's default Accept-Language).
HOST_BROWSER = Caller(HOST, "127.0.0.1", ("en",))
GUEST_PHONE = Caller(GUEST, "192.0.2.7", ("en",))

# Controls a finger taps, by the event the client sends when it is tapped.
CLICKED = (
    ft.Button,
    ft.FilledButton,
    ft.FilledTonalButton,
    ft.OutlinedButton,
    ft.TextButton,
    ft.IconButton,
    ft.ListTile,
    ft.Container,
    ft.Card,
)


class NotOnScreen(AssertionError):
    """The control asked for is not on the screen (or cannot be tapped there)."""


@dataclasses.dataclass
class Node:
    """A control as the accessibility tree names it."""

    control: Any
    name: str
    role: str  # "button", "checkbox", "radio", "textbox" or "text"
    enabled: bool = True
    checked: bool | None = None


class Table:
    """The app served from `folder` (with `sharing`, a shared table's host), on a loop of its
    own: `screen()` opens a device on it, `restart()` stops it and serves it again."""

    def __init__(self, folder: Path, sharing: Any = None) -> None:
        from views.app import make_main

        self.folder = folder
        self.sharing = sharing
        # The app's loop runs in a thread of its own, as a server's does (and a test's thread
        # may hold another: Playwright's, after a browser test in the same worker).
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="screens", daemon=True)
        self.thread.start()
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="screen")
        self.hub = PubSubHub(loop=self.loop, executor=self.executor)
        self.main = make_main(str(folder), sharing)
        self.screens: list[Screen] = []
        if isinstance(getattr(sharing, "door", None), Door):
            sharing.door.table = self  # the guests it lets in are this table's screens
        # How `restart` serves the folder again (the screen tests' fixture sets its own, which
        # also closes the new table after the test).
        self.reopen: Callable[[Path, Any], Table] = Table

    def screen(
        self,
        device: Screen | None = None,
        route: str = "/",
        caller: Caller | None = None,
        **page: Any,
    ) -> Screen:
        """A new tab: of `device` (its shared preferences: the same device), else of a new
        device; opened on `route`, as `caller` (the guard's view of who connected; None: the
        host's own browser) with `page` fields told as the client tells them."""
        screen = Screen(self, device.preferences if device else {}, caller)
        self.screens.append(screen)
        screen.open(route, **page)
        return screen

    def run(self, coroutine: Any) -> Any:
        """`coroutine` run on the app's loop; its result, once it has ended."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=RUN_S)

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` called on the app's loop (in a task: its context is its own)."""

        async def calling() -> Any:
            return function(*args)

        return self.run(calling())

    def settle(self) -> None:
        """Wait until every session has answered: the loop has had nothing to run, no update
        or effect pending, for `QUIET_TURNS` turns in a row. Timers set for later are not
        waited for."""
        self.run(self._quiet())

    async def _quiet(self) -> None:
        quiet = 0
        for _ in range(MOST_TURNS):
            await asyncio.sleep(0)
            if self._busy():
                quiet = 0
            else:
                quiet += 1
                if quiet >= QUIET_TURNS:
                    return
        raise AssertionError("the app never settled: it kept changing the screen")

    def _busy(self) -> bool:
        loop: Any = self.loop
        now = loop.time()
        due = any(not timer.cancelled() and timer.when() <= now for timer in loop._scheduled)
        return bool(loop._ready) or due

    def close(self) -> None:
        """Every tab closed (as the server closes its sessions when it stops), the store
        released, the loop ended."""
        from storage import Store
        from views.state import LATER

        for screen in self.screens:
            screen.close()
        self.screens.clear()
        self.settle()
        LATER.submit(lambda: None).result()  # the last route written
        opened = Store._instances.get(self.folder.resolve())
        if opened is not None:  # its drafts written, the folder released: in the thread that
            self.call(opened.close)  # opened it (its lock on the folder is that thread's)
        self.run(self._ended())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.executor.shutdown(wait=True)
        self.loop.close()

    async def _ended(self) -> None:
        """Every task left (Flet's update loops, the store's) cancelled."""
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def restart(self) -> Table:
        """The app stopped and served again from the same folder: a new table (the screens
        of this one are closed; open new ones on it, of the same devices if need be)."""
        # A shared table started again shares anew (a new link and PIN): not played here.
        assert self.sharing is None, "a shared table's restart is not modelled"
        self.close()
        return self.reopen(self.folder, self.sharing)


class Screen(Connection):
    """One tab of a device on a `Table`: Flet's connection for its session, answering the
    app's calls as a browser's client does, and a finger that taps what the screen shows."""

    def __init__(self, table: Table, preferences: dict[str, Any], caller: Caller | None) -> None:
        super().__init__()
        self.table = table
        self.preferences = preferences  # the device's: localStorage on the web
        self.caller = caller
        self.loop = table.loop
        self.executor = table.executor
        self.pubsubhub = table.hub
        self.page_url = "http://127.0.0.1:8550"
        self.page_name = ""
        self.sent: list[Message] = []  # every message the server sent this tab
        self.downloads: list[tuple[str, bytes]] = []  # files saved (their names and bytes)
        self.files_to_pick: list[tuple[str, bytes]] = []  # the next pick_files' answer
        self.launched: list[str] = []  # addresses opened outside the app
        self.session: Session | None = None

    # --- the connection ----------------------------------------------------------------------

    def open(self, route: str, **fields: Any) -> None:
        """Register as Flet's web client does on a page load, and wait for the first screen."""
        session = Session(self)
        self.session = session
        self.fields = {**PHONE_PAGE, **fields}  # what the client tells again when it comes back
        self.table.call(self._register, session, route, fields)
        self.table.settle()

    def _register(self, session: Session, route: str, fields: dict[str, Any]) -> None:
        _context_page.set(session.page)
        _caller.set(self.caller)
        session.apply_page_patch({**PHONE_PAGE, **fields, "route": route})
        session.page.client_ip = self.caller.address if self.caller else "127.0.0.1"
        session.page.client_user_agent = USER_AGENT
        answer = RegisterClientResponseBody(session.id, session.get_page_patch(), "")
        self.send_message(Message(MessageAction.REGISTER_CLIENT, answer))  # the page mounted
        self.loop.create_task(self._run_main(session))

    async def _run_main(self, session: Session) -> None:
        _context_page.set(session.page)
        await self.table.main(session.page)
        await session.after_event(session.page)

    def send_message(self, message: Message) -> None:
        # Packed as Flet's web server packs it: packing also takes the snapshots Flet's next
        # diff compares with (flet.messaging.protocol), so an unpacked message breaks patches.
        msgpack.packb(
            [message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl)
        )
        self.sent.append(message)
        if message.action == MessageAction.INVOKE_METHOD:
            body = message.body
            self.loop.call_soon(self._answer, body.control_id, body.call_id, body.name, body.args)

    def _answer(self, control_id: int, call_id: str, name: str, args: Any) -> None:
        """What Flet's web client answers to a call of the app's (see `send_message`)."""
        session = self.session
        if session is None:
            return
        result = self._result(control_id, name, args or {})
        session.handle_invoke_method_results(control_id, call_id, result, None)

    def _result(self, control_id: int, name: str, args: dict[str, Any]) -> Any:
        assert self.session is not None
        control = self.session.index.get(control_id)
        if name == "push_route":  # the browser's address changes, and the page says so
            self.loop.call_soon(self._route_changed, args["route"])
            return None
        if isinstance(control, ft.SharedPreferences):
            return self._preference(name, args)
        if name == "save_file":
            self.downloads.append((args["file_name"], bytes(args.get("src_bytes") or b"")))
            return None
        if name == "pick_files":
            picked = [
                {"id": number, "name": file, "size": len(data), "bytes": data}
                for number, (file, data) in enumerate(self.files_to_pick)
            ]
            self.files_to_pick = []
            return picked
        if name == "launch_url":
            self.launched.append(str(args.get("url")))
            return None
        return None

    def _preference(self, name: str, args: dict[str, Any]) -> Any:
        kept = self.preferences
        if name == "get":
            return kept.get(args["key"])
        if name == "set":
            kept[args["key"]] = args["value"]
            return True
        if name == "remove":
            return kept.pop(args["key"], None) is not None
        if name == "contains_key":
            return args["key"] in kept
        if name == "get_keys":
            return [key for key in kept if key.startswith(args.get("key_prefix", ""))]
        if name == "clear":
            kept.clear()
            return True
        raise NotImplementedError(f"SharedPreferences.{name}")

    def _route_changed(self, route: str) -> None:
        assert self.session is not None
        page = self.session.page
        self.session.apply_page_patch({"route": route})
        self._dispatch(page._i, "route_change", {"route": route})

    def _dispatch(self, control_id: int, name: str, data: Any) -> None:
        """An event from the client, on its way to the session (not waited for). A failure
        outside the handler's own guard is logged, as the server's loop logs a failed task."""
        assert self.session is not None
        dispatched = asyncio.run_coroutine_threadsafe(
            self.session.dispatch_event(control_id, name, data), self.loop
        )
        dispatched.add_done_callback(_logged_if_failed)

    def get_upload_url(self, file_name: str, expires: int) -> str:
        return f"{self.page_url}/upload/{file_name}"

    def close(self) -> None:
        """The tab closed: its session ends as the server ends a closed tab's."""
        if self.session is not None:
            session, self.session = self.session, None

            async def gone() -> None:
                await session.disconnect(0)
                session.close()

            self.table.run(gone())

    def reload(self) -> None:
        """The tab reloaded, on the address it showed: the same session, resumed. Flet's web
        client keeps its session's id in the tab (sessionStorage) and registers with it
        again; the server kept the session since the old page went and resumes it (flet_web's
        FletApp: `disconnect_session`, then `reconnect_session`): the app's `main` does not
        run again, the whole page is sent again and the page's "connect" event follows. The
        app sees the same tab (`page.session.id`: its undo steps stay its own). A new tab of
        the same device is `table.screen(device=...)`."""
        session = self.session
        assert session is not None
        route = self.route
        self.table.run(session.disconnect(self._kept_for()))  # the old page went
        self.table.settle()
        self.table.call(self._resume, session, route)
        self.table.settle()

    def _resume(self, session: Session, route: str) -> None:
        """Register again with the session's id, as flet_web's FletApp answers it."""
        _context_page.set(session.page)
        _caller.set(self.caller)
        session.apply_page_patch({**self.fields, "route": route})  # the client tells it all again
        answer = RegisterClientResponseBody(session.id, session.page, "")  # the whole page
        self.send_message(Message(MessageAction.REGISTER_CLIENT, answer))
        session.attach_connection(self)
        self.loop.create_task(session.dispatch_connect_event())

    def lose_connection(self) -> None:
        """The tab's network is gone (a phone off the Wi-Fi): its websocket closes and the
        server keeps the session for it to come back (flet_web's `disconnect_session`; the
        guests' door keeps a guest's for `GUEST_SESSION_SECONDS`). Nothing is sent to it
        meanwhile. How Flet's web client notices and connects again is the browser's."""
        session = self.session
        assert session is not None
        self.table.run(session.disconnect(self._kept_for()))
        self.table.settle()

    def _kept_for(self) -> int:
        """How long the server keeps this tab's session once its page went (the guests' door
        keeps a guest's for `GUEST_SESSION_SECONDS`)."""
        guest = self.caller is not None and self.caller.role == GUEST
        return GUEST_SESSION_SECONDS if guest else SESSION_KEPT

    def come_back(self) -> None:
        """The network is back: Flet's web client connects again and registers with its
        session's id, which the server resumes (as after a reload, `reload`)."""
        session = self.session
        assert session is not None and session.connection is None, "the tab is not away"
        self.table.call(self._resume, session, self.route)
        self.table.settle()

    @property
    def route(self) -> str:
        assert self.session is not None
        return str(self.session.page.route or "/")

    @property
    def page(self) -> ft.Page:
        assert self.session is not None
        return self.session.page

    # --- what the screen shows --------------------------------------------------------------

    def nodes(self) -> list[Node]:
        """Everything the accessibility tree would have now, in the screen's order: the top
        screen and the note at its bottom, or the dialog over them (Flutter's barrier blocks
        what is under a dialog). Flutter shows one note at a time, the others queued behind it
        (a note goes when its time is up, which no screen test waits for, or at the player's
        next tap: `widgets.put_away`)."""
        page = self.page
        views = [view for view in _unwrapped(page.views) if _shown(view)]
        dialogs = [d for d in page._dialogs.controls if getattr(d, "open", False)]
        modal = [d for d in dialogs if not isinstance(d, ft.SnackBar)]
        notes = [d for d in dialogs if isinstance(d, ft.SnackBar)][:1]
        roots = [modal[-1]] if modal else [*views[-1:], *notes]
        found: list[Node] = []
        for root in roots:
            _collect(root, True, found)
        return found

    def texts(self) -> list[str]:
        """Every name on the screen (what a failure says the screen showed)."""
        return [node.name for node in self.nodes()]

    def find(
        self,
        name: str | re.Pattern[str],
        role: str | None = None,
        enabled: bool | None = None,
    ) -> list[Node]:
        """The nodes named `name` (a whole name, or a pattern searched in it), of `role`."""
        return [
            node
            for node in self.nodes()
            if (role is None or node.role == role)
            and (enabled is None or node.enabled == enabled)
            and (name.search(node.name) if isinstance(name, re.Pattern) else node.name == name)
        ]

    def shows(self, text: str) -> bool:
        """Whether a control says `text`: its whole name, or a whole line of it (as the
        browser tests' `ui.shown`)."""
        return any(node.name == text or text in node.name.split("\n") for node in self.nodes())

    def says_somewhere(self, text: str) -> bool:
        """Whether a control's name holds `text`, in any case (as the browser tests' `see`)."""
        wanted = text.casefold()
        return any(wanted in node.name.casefold() for node in self.nodes())

    def shown(self, text: str) -> None:
        if not self.shows(text):
            raise NotOnScreen(f"{text!r} is not on the screen; it shows {self.texts()}")

    def see(self, text: str) -> None:
        if not self.says_somewhere(text):
            raise NotOnScreen(f"{text!r} is not on the screen; it shows {self.texts()}")

    def see_not(self, text: str) -> None:
        if self.says_somewhere(text):
            raise AssertionError(f"{text!r} is on the screen: {self.texts()}")

    def says(self, start: str, text: str = "") -> bool:
        """Whether a node's name (a card's texts, a line each) starts with `start` and holds
        `text`."""
        return any(node.name.startswith(start) and text in node.name for node in self.nodes())

    def checked(self, label: str, role: str = "checkbox") -> bool:
        return any(node.checked for node in self.find(label, role))

    # --- a finger -----------------------------------------------------------------------------

    def tap(self, name: str, role: str = "button") -> None:
        """Tap the control named `name` (see `_one`) and wait for the app's answer."""
        self._tap(self._one(name, role))

    def press(self, name: str) -> None:
        """Tap the button `name` without waiting for the app's answer: a finger on another
        device may tap before it comes (`Table.settle` then runs both taps and answers)."""
        node = self._one(name, "button")
        if not node.enabled:
            raise AssertionError(f"{name!r} cannot be tapped: it is disabled")
        self._dispatch(node.control._i, "click", None)

    def pop_view(self) -> None:
        """The system's Back (Android's button, a swipe): Flutter pops the view on top and the
        client tells the page, naming the view's route."""
        from flet.components.public_utils import unwrap_component

        page = self.page
        top = unwrap_component(unwrap_component(page.views)[-1])
        self._send(page, "view_pop", {"route": top.route})

    def tap_starting(self, prefix: str) -> None:
        """Tap the button whose name starts with `prefix` (a row whose texts are merged)."""
        pattern = _starting(prefix)
        matches = self.find(pattern, "button")
        if not matches:
            raise NotOnScreen(f"no button starts with {prefix!r}; the screen shows {self.texts()}")
        self._tap(matches[0])

    def chip(self, label: str, checked: bool = True, role: str = "checkbox") -> None:
        """Make the chip (checkbox, radio) named `label` checked (or not)."""
        node = self._one(label, role)
        if bool(node.checked) != checked:
            self._tap(node)
        if self.checked(label, role) != checked:
            raise AssertionError(f"{label!r} tapped: the app drew it checked={not checked}")

    def type_text(self, label: str, text: str, submit: bool = False) -> None:
        """Type `text` into the field `label` (its whole text), as the client sends it: the new
        value, then "change" (and "submit" for Enter)."""
        node = self._one(label, "textbox")
        field = node.control
        self._send(field, "focus", None)
        self._set(field, {"value": text})
        self._send(field, "change", text)
        if submit:
            self._send(field, "submit", text)

    def _one(self, name: str, role: str) -> Node:
        """The first control named `name` of `role` that a finger can tap (a button's name
        may be a chip's, as in the browser tests' roles; see `Node.role`)."""
        tappable = [node for node in self.find(name) if node.role != "text"]
        matches = self.find(name, role) or (tappable if role == "button" else [])
        if not matches:
            raise NotOnScreen(f"no {role} {name!r} on the screen; it shows {self.texts()}")
        return next((node for node in matches if node.enabled), matches[0])

    def _tap(self, node: Node) -> None:
        if not node.enabled:
            raise AssertionError(f"{node.name!r} cannot be tapped: it is disabled")
        control = node.control
        if isinstance(control, ft.Chip) and control.on_select is not None:
            selected = not bool(control.selected)
            self._set(control, {"selected": selected})
            self._send(control, "select", selected)
        elif isinstance(control, ft.Checkbox):
            value = not bool(control.value)
            self._set(control, {"value": value})
            self._send(control, "change", value)
        elif isinstance(control, ft.Radio):
            group = _ancestor(control, ft.RadioGroup)
            assert group is not None, "a Radio outside a RadioGroup"
            self._set(group, {"value": control.value})
            self._send(group, "change", control.value)
        elif isinstance(control, ft.Segment):
            self._set_segment(control)
        elif isinstance(control, ft.SnackBar):  # its action; the note then closes
            self._send(control, "action", None)
            self._set(control, {"open": False})
            self._send(control, "dismiss", None)
        else:
            self._send(control, "click", None)

    def _set_segment(self, segment: ft.Segment) -> None:
        """A segment tapped, as Flutter's SegmentedButton takes it (one chosen at a time): the
        chosen segment of a button that allows none is taken back, any other is chosen; the
        client draws the new choice itself and sends it."""
        buttons = _ancestor(segment, ft.SegmentedButton)
        assert buttons is not None, "a Segment outside a SegmentedButton"
        chosen = segment.value in (buttons.selected or [])
        choice = [] if chosen and buttons.allow_empty_selection else [segment.value]
        self._set(buttons, {"selected": choice})
        self._send(buttons, "change", choice)

    def _set(self, control: Any, props: dict[str, Any]) -> None:
        """A property the client changed itself (as its UPDATE_CONTROL_PROPS)."""
        assert self.session is not None
        self.table.call(self.session.apply_patch, control._i, props)

    def _send(self, control: Any, name: str, data: Any) -> None:
        """An event from the client, then the app's whole answer, which must leave every
        control on the page known to the session by its id (`_unknown_controls`)."""
        self._dispatch(control._i, name, data)
        self.table.settle()
        if self.session is not None:
            unknown = self.table.call(_unknown_controls, self.session)
            if unknown:
                raise AssertionError(f"controls on the page the session does not know: {unknown}")


def _unknown_controls(session: Session) -> list[str]:
    """The controls of the page that are not the ones the session holds under their ids (at
    most five): the browser's events for them would reach another control, or none (a
    control given again from an earlier drawing at another place, `hooks.use_retained`,
    took another's id there)."""
    index = session.index
    unknown: list[str] = []
    seen: set[int] = set()
    waiting: list[Any] = [session.page]
    while waiting and len(unknown) < 5:
        control = waiting.pop()
        if id(control) in seen:
            continue
        seen.add(id(control))
        if index.get(control._i) is not control:
            unknown.append(str(control))
        body = getattr(control, "_b", None)
        held = [body] if body is not None else []
        # A control's properties are in its own dict (lists of controls, some) or in its
        # `_values` (the rest): read there, as a getattr of every field costs ten times more.
        held += [value for name, value in vars(control).items() if not name.startswith("_")]
        held += getattr(control, "_values", {}).values()
        for value in held:
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, BaseControl):
                    waiting.append(child)
    return unknown


def _logged_if_failed(task: Any) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.error("an event's task failed", exc_info=task.exception())


def _starting(prefix: str) -> re.Pattern[str]:
    """A name that starts with `prefix` (a whole word), a space in it any white space: as
    Playwright matches a name, its lines joined by spaces ("1 Round 1" is a list row's
    "1\\nRound 1\\n...")."""
    return re.compile(r"^" + r"\s+".join(re.escape(word) for word in prefix.split()) + r"\b")


def _unwrapped(controls: Any) -> list[Any]:
    """Controls (one, or a list) with the components among them replaced by what they
    drew."""
    found: list[Any] = []
    for control in controls if isinstance(controls, (list, tuple)) else [controls]:
        while control is not None and hasattr(control, "_b") and not isinstance(control, ft.View):
            control = control._b
        if isinstance(control, list):
            found.extend(_unwrapped(control))
        elif control is not None:
            found.append(control)
    return found


def _shown(control: Any) -> bool:
    return getattr(control, "visible", True) is not False


def _ancestor(control: Any, kind: type) -> Any:
    parent = control.parent
    while parent is not None and not isinstance(parent, kind):
        parent = parent.parent
    return parent


# A screen's parts in the order Flutter's accessibility tree has them (its fields' order
# puts the bar last).
VIEW_PARTS = ("appbar", "controls", "floating_action_button", "bottom_appbar", "navigation_bar")


def _children(control: Any) -> Iterator[Any]:
    """The controls a control holds, in its fields' order (a component: what it drew)."""
    if hasattr(control, "_b") and not isinstance(control, ft.View):
        yield from _unwrapped([control._b])
        return
    if isinstance(control, ft.View):
        for part in VIEW_PARTS:
            yield from _controls_in(getattr(control, part, None))
        return
    given = getattr(control, "_values", None)
    structural = getattr(type(control), "_structural_fields", frozenset())
    for name in _field_names(type(control)):
        if name in structural or given is None or name in given:
            yield from _controls_in(getattr(control, name, None))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a kind of control that may hold controls, in their order (cached: asking
    `dataclasses.fields` at every control took most of a screen test's time)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = tuple(
            field.name
            for field in dataclasses.fields(kind)
            if not field.metadata.get("skip")
            and field.name not in ("_parent", "data", "key", "ref")
            and not field.name.startswith("on_")
        )
        for drawn, first in DRAWN_FIRST.items():
            if issubclass(kind, drawn):  # Flutter's order, not the fields'
                names = (*first, *(name for name in names if name not in first))
        _FIELD_NAMES[kind] = names
    return names


# Controls whose parts Flutter lays out (and names) in another order than their fields': a list
# row's leading part comes first ("1\nRound 1\n..."), where Flet declares it after the title.
DRAWN_FIRST: dict[type, tuple[str, ...]] = {
    ft.ListTile: ("leading", "title", "subtitle", "trailing"),
}


def _controls_in(value: Any) -> Iterator[Any]:
    if isinstance(value, BaseControl):
        yield from _unwrapped([value])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _controls_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _controls_in(item)


def _label(control: Any) -> str | None:
    """A leaf's own name: a text's label or value, an icon's label."""
    if isinstance(control, ft.Text):
        said = control.semantics_label or control.value
        if said is None and control.spans:
            said = "".join(span.text or "" for span in control.spans)
        return str(said) if said else None
    if isinstance(control, ft.Icon):
        return control.semantics_label or None
    if isinstance(control, ft.Image):  # a picture is named by its label, unless left out
        return None if control.exclude_from_semantics else control.semantics_label or None
    return None


def _merged(control: Any) -> list[str]:
    """The names inside `control`, as Flutter merges them into a button's: each line one."""
    if not _shown(control):
        return []
    if isinstance(control, ft.Semantics):
        if control.exclude_semantics:
            return [control.label] if control.label else []
        own = [control.label] if control.label else []
        return own + [line for child in _children(control) for line in _merged(child)]
    own_label = _label(control)
    if own_label is not None:
        return [own_label]
    return _written(control) + [line for child in _children(control) for line in _merged(child)]


# A control's fields that may hold its text as a plain string (a button's content, a segment's
# label), which Flet's client draws as a Text.
WRITTEN = ("content", "text", "label", "title")


def _written(control: Any) -> list[str]:
    return [
        value
        for name in WRITTEN
        if isinstance(value := getattr(control, name, None), str) and value
    ]


def _role(control: Any) -> str:
    if isinstance(control, ft.Radio):
        return "radio"
    if isinstance(control, (ft.Checkbox, ft.Switch)):
        return "checkbox"
    if isinstance(control, ft.Chip):
        return "checkbox"  # as Flutter marks every chip: checked or not
    if isinstance(control, ft.TextField):
        return "textbox"
    return "button"


def _tappable(control: Any) -> bool:
    if isinstance(control, (ft.Chip, ft.Segment, ft.Radio, ft.Checkbox)):
        return True
    if isinstance(control, (ft.Container, ft.Card, ft.ListTile)):
        return getattr(control, "on_click", None) is not None
    return isinstance(control, CLICKED)


def _collect(control: Any, enabled: bool, found: list[Node]) -> None:
    """The accessibility nodes of `control`'s subtree, into `found`."""
    if not _shown(control):
        return
    enabled = enabled and not getattr(control, "disabled", False)
    if isinstance(control, ft.Semantics) and control.exclude_semantics:
        if control.label:
            found.append(Node(control, control.label, "text", enabled))
        return
    if isinstance(control, ft.Semantics) and control.label:
        # A label over a tappable (a pile's box, say): one button, named by the label.
        target = _first_tappable(control)
        if target is not None:
            enabled = enabled and not getattr(target, "disabled", False)
            name = "\n".join(_merged(control))
            found.append(Node(target, name, _role(target), enabled, _checked(target)))
            return
        # A label over nothing tappable (a chart, the PIN's dots): Flutter gives the label a
        # node of its own; what is inside is named as anywhere else.
        found.append(Node(control, control.label, "text", enabled))
    if isinstance(control, ft.SnackBar):
        # A note: its text, and its action (a button of its own, "Undo").
        for child in _children(control):
            _collect(child, enabled, found)
        if isinstance(control.action, str) and control.action:
            found.append(Node(control, control.action, "button", enabled))
        return
    if isinstance(control, ft.TextField):
        label = control.label if isinstance(control.label, str) else None
        found.append(Node(control, label or str(control.hint_text or ""), "textbox", enabled))
        return
    if _tappable(control):
        name = "\n".join(_merged(control))
        found.append(Node(control, name, _role(control), enabled, _checked(control)))
        return
    label = _label(control)
    if label is not None:
        found.append(Node(control, label, "text", enabled))
        return
    if isinstance(control, ft.Card):
        # A card is one node of its texts (a line each); its buttons and chips are their own.
        found.append(Node(control, "\n".join(_texts_outside_buttons(control)), "text", enabled))
        inside: list[Node] = []
        for child in _children(control):
            _collect(child, enabled, inside)
        found.extend(node for node in inside if node.role != "text")
        return
    for child in _children(control):
        _collect(child, enabled, found)


def _texts_outside_buttons(control: Any) -> list[str]:
    lines: list[str] = []
    for child in _children(control):
        if not _shown(child) or _tappable(child) or isinstance(child, ft.TextField):
            continue
        if isinstance(child, ft.Semantics) and child.exclude_semantics:
            lines.extend([child.label] if child.label else [])
            continue
        label = _label(child)
        lines.extend([label] if label is not None else _texts_outside_buttons(child))
    return lines


def _first_tappable(control: Any) -> Any:
    for child in _children(control):
        if not _shown(child):
            continue
        if _tappable(child):
            return child
        found = _first_tappable(child)
        if found is not None:
            return found
    return None


def _checked(control: Any) -> bool | None:
    if isinstance(control, ft.Chip):
        return bool(control.selected)
    if isinstance(control, ft.Checkbox):
        return bool(control.value)
    if isinstance(control, ft.Radio):
        group = _ancestor(control, ft.RadioGroup)
        return group is not None and group.value == control.value
    if isinstance(control, ft.Segment):
        buttons = _ancestor(control, ft.SegmentedButton)
        return buttons is not None and control.value in (buttons.selected or [])
    return None


def record_of(folder: Path, game_id: str) -> dict[str, Any]:
    """A game's record as the app stored it (read back through the store)."""
    from storage import Store

    store = Store.open(folder)
    try:
        return json.loads(json.dumps(store.load_game(game_id)))
    finally:
        store.close()


Seated = Callable[..., tuple[Table, Screen]]  # the `seated` fixture


class Door:
    """A shared table's door for guests (web/sharing.py's `GuestDoor`), in-process: what
    web/serve.py's `NetworkDoor` does to the app's sessions, without the network. A guest is a
    screen of the table opened with a guest's `caller`, as the guard hands it to a session
    (`GUEST_PHONE`); the app admits it (`Sharing.admit`) as it admits one from the door. The
    link here only names the share (each start a new one): the link, its cookie and the door's
    own limits are HTTP's (tests/test_door_attacks.py attacks them with a raw client)."""

    def __init__(self) -> None:
        self.table: Table | None = None  # set by the table served with this door's sharing
        self.links: list[str] = []

    async def open(self, pin: str) -> str:
        self.links.append(f"http://192.0.2.1:8551/?share=share{len(self.links) + 1}")
        return self.links[-1]

    async def end(self, session: GuestSession) -> None:
        """Flet drops the session (web/serve.py's `end_session`): its tab has nothing left."""
        for screen in self.table.screens if self.table else []:
            if screen.session is session:
                screen.session = None
        session.close()  # type: ignore[attr-defined]

    async def close(self, guest_sessions: list[GuestSession]) -> None:
        """Stop serving guests: every guest's connection closes (its page is told that sharing
        stopped, web/connection_note.js: the browser's), then their sessions end."""
        for screen in self.table.screens if self.table else []:
            session = screen.session
            guest = screen.caller is not None and screen.caller.role == GUEST
            if guest and session is not None and session.connection is not None:
                # In a task of its own, as the server ends each connection in that
                # connection's task: Flet binds the task's page to the session it disconnects,
                # which must not become the page of the host's task that stops sharing.
                await asyncio.create_task(session.disconnect(GUEST_SESSION_SECONDS))
        for session in guest_sessions:
            await self.end(session)


def shared_table(open_table: Callable[..., Table], folder: Path) -> Table:
    """The app served from `folder` shared from its start, as `python main.py --web --share`
    serves it: its `Sharing` (with a `Door` for the guests) started before any tab opens.
    `open_table` is the `screen_tables` fixture; the PIN is `table.sharing.pin`."""
    sharing = Sharing(Door())
    table = open_table(folder, sharing)
    table.run(sharing.start())
    return table
