"""Tap-to-screen latency of Debrief (Chromium, 400×800), in one of two comparisons made in one
run, so that both sides meet the same machine:

    .venv/bin/python bench/latency.py --before aa866b3 [--samples 50]
    .venv/bin/python bench/latency.py --floor [--samples 40]

`--before COMMIT`: this tree against another commit, checked out in a temporary git worktree
and served from there. Prints one JSON line per version: median and max milliseconds of a count
tap (a stepper's, or a count chip's), a keypad tap and a save, from Playwright's click until
the server's next message is painted (`timed`).

`--floor`: Debrief against Flet's floor, a minimal Flet app whose one button updates one text
(bench/floor.py), both served on this machine at once and tapped the same way. Debrief plays
games written to its data folder before it starts: Black Spy (4 players, end value 100,000) at
deal 8 and at deal 40 (7 and 39 deals saved), Kompromat at round 1 and at round 6 (5 rounds
saved). Prints one JSON line:

- `floor_ms`: the median of the floor app's button. Its taps are made in blocks before, between
  and after Debrief's (the machine is shared and noisy): the median of them all.
- `actions`: per kind of tap and deal (round), `median_ms` of `--samples` taps and `ratio`, that
  median over `floor_ms`:
  - `quick_key`: a key of the Quick number pad: the first pile's 7 (a pile that may still grow
    to 75, so the pad stays on it) and Delete a digit, in turn;
  - `count_tap`: in the Cards form, the first player's black Spies count chip 1 and 0, in turn;
  - `keypad_key` (Kompromat, rounds "1" and "6"): in the Cards form, the first player's card
    key 7 and the played 7 taken back, in turn;
  - `save_deal`: Save deal with a complete deal (one count chip set, the other piles filled in);
    then, untimed, Undo and the entry opened again, so that every tap saves the same deal;
  - `open_game`: on Home, the game's row, until the game's screen is painted; Back untimed.
  Deal 8 and deal 40 (round 1 and 6) are visited in turn, at most ten taps of each kind a visit,
  in an order switched from one round of visits to the next.
- `floor_load_ms`, `load_ms`, `load_ratio`: a cold page load of the floor app and of Debrief (a
  new browser context: nothing cached, no cookie; Debrief opens on Home with its four games in
  progress), from the start of the navigation until the app's first control ("Add"; "New game")
  is in Flutter's accessibility tree, turned on as soon as its placeholder is there: the
  median of five loads each, floor and Debrief in turn.
- `property_sets` (`floor_property_sets` for the floor's button): per kind of tap and deal, the
  control properties the app's server sets for a tap, counted in its process: every call of
  Flet's `Prop.__set__`, through which each property of a control is set, when a control is
  built (a component rendered again builds all its controls anew) or changed. A figure for how
  much a tap re-renders, whatever reaches the browser.
- `patched_properties` (`floor_patched_properties`): what reaches the browser: the properties
  the server's patches set there, decoded from the websocket frames the page receives (Flet
  1.0's msgpack, `[0x00][[action, body]]`). Of each PATCH_CONTROL message's operations, a value
  replaced or added counts one for each plain value it carries (a control added counts each of
  its properties, nested controls' too), a removal or a move one.
  Both are counted after the timed taps, against servers started again on the same data that
  count (bench/render_count.py, loaded at start-up; counting costs a Python call per set, so
  the timed servers do not), from the tap until the server has set nothing for 0.3 s: the
  median of five taps of each kind (five cycles of the keys that alternate, per tap). A server
  renders an answer in one pass or in more, as its updates happen to fall: the same tap can
  count more (measured: a Save at deal 8 from 10,600 to 19,400, opening that game from 10,100
  to 12,100, a count chip 17,390 or 25,724).

How a tap is timed (`tapped`): the control is brought wholly onto the screen and, untimed, the
page is waited for until nothing lies over its centre; then a mouse click there. The time runs
in the page's own clock, from the click's pointerup to the painting of the answer: the second
animation frame after the last message from the server that arrived before the tap's result
(a label shown or gone) was in the accessibility tree. The first message after a tap is not
always its answer: opening a game, the first one only empties the page's list of services.
Playwright's round trips are not in these times (its `locator.click()` alone adds 20 to 35 ms),
so the floor is smaller and every ratio larger than `timed` makes them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# A label, or the start of one (a pile's card: "Anna\n10 points\n…").
# (Flutter puts a leaf's label in its text, a container's in aria-label: both are looked at.)
SHOWS = """label => [...document.querySelectorAll('flt-semantics')]
    .some(e => (e.getAttribute('aria-label') || e.textContent || '').startsWith(label))"""
PILE = "Anna\n10 points\n"


def timed(page: Any, click: Callable[[], None], label: str, present: bool = True) -> float:
    """Milliseconds from `click` until the app's answer is on the screen: the server's next
    message has arrived and a frame painted with it (`tools.browser.answered`). Then, untimed,
    waits for `label` to be shown (or, `present` False, gone) in the accessibility tree, so
    each sample starts from the state the last one made. (The tree itself lags up to the
    length of a note when one note follows another, though the screen is painted: not a
    measure of what a player sees.)"""
    from tools.browser import answered, received  # type: ignore[import-not-found]

    before = received(page)
    start = time.perf_counter()
    click()
    answered(page, before)
    took = (time.perf_counter() - start) * 1000
    check = SHOWS if present else f"label => !({SHOWS})(label)"
    page.wait_for_function(check, arg=label, polling="raf", timeout=30_000)
    return took


def button(page: Any, name: str, role: str = "button") -> Any:
    found = page.get_by_role(role, name=name, exact=True).first
    found.wait_for()
    return found


def measure(root: Path, samples: int) -> dict[str, dict[str, float]]:
    """The three kinds of tap, `samples` each, against the app in `root`."""
    sys.path[:0] = [str(root), str(root / "tests")]
    from ui import start_game  # type: ignore[import-not-found]

    from tools.browser import AppServer, chromium, open_app, tap  # type: ignore[import-not-found]

    found: dict[str, list[float]] = {"stepper": [], "keypad": [], "save": []}
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        server = AppServer(Path(folder) / "data").start()
        page = open_app(browser, server.url)
        try:
            start_game(page, "Black Spy", ["Anna", "Ben", "Carla", "Dirk"])
            tap(page, "Start Black Spy")
            tap(page, "Enter deal 1")
            if page.get_by_role("button", name="7", exact=True).count():
                tap(page, "Cards")  # this version opens the quick entry first
            # A pile's count: a stepper's plus and minus, or (since the count chips) its
            # number 1 and 0 — one tap that changes the count and redraws the pile either way.
            up, down = "Anna: black Spies plus", "Anna: black Spies minus"
            if page.get_by_role("button", name=up, exact=True).count() == 0:
                up, down = "Anna: black Spies: 1", "Anna: black Spies: 0"
            role = "button" if up.endswith("plus") else "checkbox"
            while len(found["stepper"]) < samples:
                found["stepper"].append(timed(page, button(page, up, role).click, PILE))
                lower = button(page, down, role).click
                found["stepper"].append(timed(page, lower, PILE, present=False))
            while len(found["save"]) < samples:
                button(page, up, role).click()
                page.wait_for_function(SHOWS, arg=PILE, polling="raf")
                # The note of the last undo lies over the bottom of the screen, where the page
                # scrolled Save to, for four seconds: a click would wait for it to go.
                page.wait_for_function(f"label => !({SHOWS})(label)", arg="Undone:")
                found["save"].append(timed(page, button(page, "Save deal").click, "Anna: total 10"))
                undo = button(page, "Undo: save deal 1")
                timed(page, undo.click, "Anna: total 10", present=False)
                # Before a2fd659 the sheet kept the entry's scroll offset, and the button's
                # node in the accessibility tree stayed where the entry had put it (below the
                # screen, while the button is drawn near the top): a mouse click there misses.
                # This untimed step is dispatched to the button's node itself.
                from tools.browser import answered, received  # type: ignore[import-not-found]

                before = received(page)
                button(page, "Enter deal 1").dispatch_event("click")
                answered(page, before)
            tap(page, "Discard")
            tap(page, "Back")
            start_game(page, "Kompromat", ["Anna", "Ben"])
            page.get_by_role("checkbox", name="First player: Anna").first.click()
            tap(page, "Start Kompromat")
            tap(page, "Enter round 1 of 6 (Anna starts)")
            if page.get_by_role("button", name="Anna plays 7").count() == 0:
                tap(page, "Cards")  # since Kompromat's quick entry, the first entry is quick
            while len(found["keypad"]) < samples:
                play = button(page, "Anna plays 7")
                found["keypad"].append(timed(page, play.click, "Anna: total 7"))
                back = button(page, "Anna: take back 7", role="checkbox")  # a played card
                found["keypad"].append(timed(page, back.click, "Anna: total 7", present=False))
        finally:
            page.close()
            server.stop()
    return {
        kind: {"median_ms": round(statistics.median(ms), 1), "max_ms": round(max(ms), 1)}
        for kind, ms in found.items()
    }


# --- --floor: Debrief against Flet's floor -------------------------------------------------------

BLOCK = 10  # taps of each kind per visit of a game: the visits of deal 8 and 40 take turns
LOADS = 5  # cold page loads of each app
COUNTED = 5  # taps (cycles of keys) counted of each kind: the median of them
BLACK_SPY = {8: ["Anna", "Ben", "Carla", "Dirk"], 40: ["Emil", "Frida", "Greta", "Hans"]}
KOMPROMAT = {1: ["Ida", "Jon"], 6: ["Kai", "Lea"]}
KINDS = ["quick_key", "count_tap", "keypad_key", "save_deal", "open_game"]  # as printed
END_VALUE = 100_000  # far enough that 39 deals do not end the game

# In the page, before the app's websocket opens: the time of the last tap (its pointerup) and,
# for each message from the server since, when it arrived and when the second frame after it
# was painted (`tools.browser.answered`'s measure of "painted"); `seen` is set by SEEN.
TIMING = """(() => {
    const frame = (window.__debrief && window.__debrief.frame)
        || window.requestAnimationFrame.bind(window);  // the native one: frames not counted
    const timing = window.__timing = {tap: null, messages: [], seen: null};
    window.addEventListener("pointerup", (event) => {
        timing.tap = event.timeStamp;
        timing.messages = [];
        timing.seen = null;
    }, true);
    const Native = window.WebSocket;
    class Timed extends Native {
        constructor(...args) {
            super(...args);
            super.addEventListener("message", () => {
                const message = {arrived: performance.now(), painted: null};
                timing.messages.push(message);
                frame(() => frame(() => { message.painted = performance.now(); }));
            });
        }
    }
    window.WebSocket = Timed;
})()"""
# True, with the time noted, once the label is shown (or, `present` false, no longer shown).
SEEN = f"""([label, present]) => {{
    if (({SHOWS})(label) !== present) return false;
    window.__timing.seen = performance.now();
    return true;
}}"""
# Milliseconds from the tap to the painting of its answer: the last message that arrived
# before the answer was seen (later ones are the app's own business); false until painted.
ANSWER_MS = """() => {
    const timing = window.__timing;
    const before = timing.messages.filter(message => message.arrived <= timing.seen);
    if (timing.tap === null || before.length === 0) return "no tap, or no answer before it";
    const painted = before[before.length - 1].painted;
    return painted === null ? false : painted - timing.tap;
}"""

# In the page, before the app's websocket opens: keeps a copy of every frame the server sends
# while `window.__bench.capture` is on.
CAPTURE = """(() => {
    const bench = window.__bench = {capture: false, frames: []};
    const Native = window.WebSocket;
    class Captured extends Native {
        constructor(...args) {
            super(...args);
            super.addEventListener("message", (event) => {
                if (bench.capture && event.data instanceof ArrayBuffer) {
                    bench.frames.push(new Uint8Array(event.data.slice(0)));
                }
            });
        }
    }
    window.WebSocket = Captured;
})()"""
CAPTURE_ON = "() => { window.__bench.frames = []; window.__bench.capture = true; }"
# The frames captured, as base64; the capture off.
CAPTURED = """() => {
    window.__bench.capture = false;
    const frames = window.__bench.frames;
    window.__bench.frames = [];
    return frames.map(bytes => {
        let text = "";
        for (let at = 0; at < bytes.length; at += 0x8000) {
            text += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
        }
        return btoa(text);
    });
}"""
# Whether a click at (x, y) hits the element (no note or dialog lies over it there).
ON_TOP = """([element, x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === element || element.contains(hit));
}"""
PATCH_CONTROL = 2  # flet.messaging.protocol.MessageAction
REPLACE, ADD = 0, 1  # flet.controls.object_patch.Operation (then remove, move)


def seed(folder: Path) -> None:
    """The games the bench plays, written before the app is served from `folder`: Black Spy at
    deal 8 and 40, Kompromat at round 1 and 6 (see BLACK_SPY, KOMPROMAT)."""
    import random

    import generators  # type: ignore[import-not-found]

    import scoring
    from storage import Store

    rng = random.Random(25)
    store = Store.open(folder)
    try:
        for names in [*BLACK_SPY.values(), *KOMPROMAT.values()]:
            for name in names:
                store.add_player(name)
        for deal, names in BLACK_SPY.items():
            options = {"first_dealer": names[0], "variants": [], "end_value": END_VALUE}
            game = store.create_game("black-spy", [{"name": n} for n in names], options)
            for _ in range(deal - 1):
                played = generators.black_spy_deal(rng, names, capture=False, moon_chance=0.0)
                store.append_round(game["meta"]["id"], played)
        for number, names in KOMPROMAT.items():
            # A generated game that has not ended before round `number`.
            record = generators.kompromat_record(rng, max_rounds=number - 1, names=names)
            while len(record["rounds"]) < number - 1 or scoring.replay(record).finished:
                record = generators.kompromat_record(rng, max_rounds=number - 1, names=names)
            game = store.create_game("kompromat", record["players"], record["options"])
            for played in record["rounds"]:
                store.append_round(game["meta"]["id"], played)
    finally:
        store.close()


def control(page: Any, name: Any, role: str = "button") -> Any:
    """The control of this role and accessible name (a whole name, or a pattern)."""
    return page.get_by_role(role, name=name, exact=True).first


def tapped(page: Any, target: Any, label: str, present: bool = True) -> float:
    """Milliseconds from a finger's tap on `target` until its answer is painted (TIMING,
    ANSWER_MS): the answer is what makes `label` shown (or, `present` false, gone).

    Untimed first: the control is brought wholly onto the screen and drawn there, and the page
    is waited for until nothing lies over its centre. The tap is a mouse click there."""
    from tools.browser import PAGE_WAIT, in_view

    target.wait_for(state="visible", timeout=PAGE_WAIT)
    in_view(page, target)
    box = target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.wait_for_function(ON_TOP, arg=[target.element_handle(), x, y], timeout=PAGE_WAIT)
    page.mouse.click(x, y)
    page.wait_for_function(SEEN, arg=[label, present], polling="raf", timeout=PAGE_WAIT)
    took = page.wait_for_function(ANSWER_MS, polling="raf", timeout=PAGE_WAIT).json_value()
    if isinstance(took, str):
        raise AssertionError(f"tap on {target}: {took}")
    return float(took)


def key(page: Any, target: Any, label: str, present: bool = True) -> Callable[[], float]:
    """A tap of `target` (`tapped`), ready to be made."""
    return lambda: tapped(page, target, label, present)


def leaves(value: Any) -> int:
    """The values that a value in a patch sets: a plain value one, a control or a list each of
    theirs (an empty one: one)."""
    if isinstance(value, dict):
        return sum(leaves(item) for item in value.values()) or 1
    if isinstance(value, list):
        return sum(leaves(item) for item in value) or 1
    return 1


def patched(frames: list[bytes]) -> int:
    """The control properties the PATCH_CONTROL messages among `frames` set in the browser."""
    import msgpack  # type: ignore[import-untyped]

    count = 0
    for frame in frames:
        if frame[:1] != b"\x00":
            continue  # a data channel's frame, not a message
        action, body = msgpack.unpackb(frame[1:], strict_map_key=False)
        if action == PATCH_CONTROL:
            for operation in body["patch"][1:]:  # the first is the table of the paths
                adds = operation[0] in (REPLACE, ADD)
                count += leaves(operation[3]) if adds else 1
    return count


class Counter:
    """Counts the property sets of taps on `page`: in the patches the page receives and in the
    server's process `pid`, which loaded bench/render_count.py to report to `report`."""

    def __init__(self, page: Any, pid: int, report: Path) -> None:
        self.page, self.pid, self.report = page, pid, report
        self.reads = 0  # of the count, by this counter (the only one of its server)

    def per_tap(self, taps: Sequence[Callable[[], object]]) -> tuple[float, float]:
        """Each tap (one that waits for its answer), then the screen settled: the property
        sets per tap, patched and rendered."""
        import base64

        from tools.browser import settled

        self.page.evaluate(CAPTURE_ON)
        before = self.quiet()
        for tap in taps:
            tap()
            settled(self.page)
        rendered = self.quiet() - before
        frames = [base64.b64decode(frame) for frame in self.page.evaluate(CAPTURED)]
        return patched(frames) / len(taps), rendered / len(taps)

    def sets(self) -> int:
        """The properties the server has set so far (each read is a step of its count)."""
        from render_count import read

        count = read(self.pid, self.report) - self.reads
        self.reads += 1
        return count

    def quiet(self, calm: float = 0.3) -> int:
        """The server's count once it has set nothing for `calm` seconds: the work a tap set
        off (such as events the page sends back once it has drawn) falls to that tap."""
        last = self.sets()
        while True:
            time.sleep(calm)
            now = self.sets()
            if now == last:
                return now
            last = now


class Taps:
    """One app's figures by kind of tap and deal: milliseconds of the timed taps and, while a
    `counter` is set, property sets."""

    def __init__(self) -> None:
        self.ms: dict[str, dict[int, list[float]]] = {}
        self.patched: dict[str, dict[int, int]] = {}
        self.rendered: dict[str, dict[int, int]] = {}
        self.counter: Counter | None = None

    def add(self, kind: str, deal: int, took: float) -> None:
        self.ms.setdefault(kind, {}).setdefault(deal, []).append(took)

    def count(
        self,
        kind: str,
        deal: int,
        taps: Sequence[Callable[[], object]],
        between: Callable[[], object] | None = None,
    ) -> None:
        """With a counter, once: the `taps` made and counted COUNTED times (`between` each
        time, to be where they start again); the median of each figure."""
        if self.counter is None or deal in self.rendered.get(kind, {}):
            return
        figures = []
        for time_ in range(COUNTED):
            if time_ and between is not None:
                between()
            figures.append(self.counter.per_tap(taps))
        self.patched.setdefault(kind, {})[deal] = round(statistics.median(f[0] for f in figures))
        self.rendered.setdefault(kind, {})[deal] = round(statistics.median(f[1] for f in figures))

    def alternate(self, kind: str, deal: int, count: int, keys: list[Callable[[], float]]) -> None:
        """`count` taps of `kind` at `deal`, of the `keys` in turn (the cycle completed untimed,
        so that the screen is as before); then cycles of them counted."""
        for index in range(count):
            self.add(kind, deal, keys[index % len(keys)]())
        for rest in keys[count % len(keys) :] if count % len(keys) else []:
            rest()
        self.count(kind, deal, keys)


def black_spy_visit(page: Any, taps: Taps, deal: int, count: int) -> None:
    """From Home: `count` taps of each kind at `deal`, then, while counting, taps counted; back
    on Home."""
    import re

    from ui import chip, choose_form

    from tools.browser import tap

    names = BLACK_SPY[deal]
    first = names[0]
    row = re.compile(rf"^{re.escape('Black Spy · ' + ', '.join(names))}\b")
    enter = f"Enter deal {deal}"
    open_game = key(page, control(page, row), enter)
    for index in range(count):
        if index:
            tap(page, "Back")
        taps.add("open_game", deal, open_game())
    if taps.counter is not None:
        if count:
            tap(page, "Back")
        taps.count("open_game", deal, [open_game], between=lambda: tap(page, "Back"))

    tap(page, enter)
    choose_form(page, "Quick")
    pile = f"{first}'s pile: 7"  # 7 may grow to 75: the pad stays on the pile
    digit = key(page, control(page, "7"), pile)
    delete = key(page, control(page, "Delete a digit"), pile, present=False)
    taps.alternate("quick_key", deal, count, [digit, delete])

    choose_form(page, "Cards")
    up = f"{first}: black Spies: 1"
    points = f"{first}\n10 points\n"  # the pile's card
    add = key(page, control(page, up, "checkbox"), points)
    take = key(page, control(page, f"{first}: black Spies: 0", "checkbox"), points, False)
    taps.alternate("count_tap", deal, count, [add, take])

    saved = f"Edit deal {deal}"  # the deal's row on the sheet
    save = key(page, control(page, "Save deal"), saved)

    def ready() -> None:  # a complete deal: the other piles are filled in
        chip(page, up)
        page.wait_for_function(SHOWS, arg=points, polling="raf")

    def undo_and_reopen() -> None:  # the same deal number again
        tap(page, f"Undo: save deal {deal}")
        page.wait_for_function(f"label => !({SHOWS})(label)", arg=saved, polling="raf")
        tap(page, enter)
        choose_form(page, "Cards")
        ready()

    ready()
    for index in range(count):
        if index:
            undo_and_reopen()
        taps.add("save_deal", deal, save())
    if taps.counter is not None:
        if count:
            undo_and_reopen()
        taps.count("save_deal", deal, [save], between=undo_and_reopen)
    tap(page, f"Undo: save deal {deal}")
    tap(page, "Back")


def kompromat_visit(page: Any, taps: Taps, number: int, count: int) -> None:
    """From Home: `count` keypad taps in round `number`, then, while counting, taps counted;
    the entry discarded, back on Home."""
    from ui import choose_form, tap_starting

    from tools.browser import tap

    names = KOMPROMAT[number]
    first = names[0]
    tap_starting(page, f"Kompromat · {', '.join(names)}")
    tap_starting(page, f"Enter round {number} of")
    choose_form(page, "Cards")
    total = f"{first}: total 7"
    play = key(page, control(page, f"{first} plays 7"), total)
    back = key(page, control(page, f"{first}: take back 7", "checkbox"), total, present=False)
    taps.alternate("keypad_key", number, count, [play, back])
    tap(page, "Discard")
    tap(page, "Back")


class FloorPage:
    """The floor app's page; its text counts the clicks of its button."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0

    def click(self) -> float:
        from floor import BUTTON

        self.clicks += 1
        return tapped(self.page, control(self.page, BUTTON), str(self.clicks))


def floor_block(floor: FloorPage, taps: Taps, count: int) -> None:
    """`count` clicks of the floor app's button, then, while counting, clicks counted."""
    for _ in range(count):
        taps.add("floor", 0, floor.click())
    taps.count("floor", 0, [floor.click])


def cold_load(browser: Any, url: str, name: str) -> float:
    """Milliseconds of a cold load of the app at `url` in a new browser context, until its
    button `name` is in the accessibility tree."""
    from tools.browser import PHONE

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        placeholder = page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=60_000)
        placeholder.dispatch_event("click")  # Flutter's accessibility tree on
        control(page, name).wait_for(state="attached", timeout=60_000)
        return (time.perf_counter() - start) * 1000
    finally:
        context.close()


@contextmanager
def opened(browser: Any, urls: list[str], counting: bool) -> Iterator[list[Any]]:
    """A page on each of `urls`, each of a new browser context (a device), closed after."""
    from tools.browser import PHONE, open_app

    contexts = [browser.new_context(viewport=PHONE) for _ in urls]
    try:
        for context in contexts:
            context.add_init_script(TIMING)
            if counting:
                context.add_init_script(CAPTURE)
        yield [open_app(context, url) for context, url in zip(contexts, urls, strict=True)]
    finally:
        for context in contexts:
            context.close()


def play(floor: Taps, debrief: Taps, pages: list[Any], blocks: list[int]) -> None:
    """The taps, a block of each kind at a time: the floor's before, between and after
    Debrief's blocks; deal 8 and 40 (round 1 and 6) in turn, their order switched each time."""
    floor_page, page = FloorPage(pages[0]), pages[1]
    control(page, "New game").wait_for()
    for index, count in enumerate(blocks):
        floor_block(floor_page, floor, count)
        for deal in (8, 40) if index % 2 == 0 else (40, 8):
            black_spy_visit(page, debrief, deal, count)
        for number in (1, 6) if index % 2 == 0 else (6, 1):
            kompromat_visit(page, debrief, number, count)
    floor_block(floor_page, floor, blocks[-1])


def by_kind(figures: dict[str, dict[int, int]]) -> dict[str, dict[str, int]]:
    """Property sets by kind of tap (in the order of KINDS) and deal."""
    return {
        kind: {str(deal): n for deal, n in sorted(figures[kind].items())}
        for kind in KINDS
        if kind in figures
    }


def counting_env(folder: Path) -> Callable[[str], dict[str, str]]:
    """The environment of a server that loads bench/render_count.py at start-up (by a
    sitecustomize written in `folder`) and reports its count to `folder / name`."""
    (folder / "shim").mkdir()
    (folder / "shim" / "sitecustomize.py").write_text(
        "import render_count\nrender_count.install()\n"
    )
    path = os.pathsep.join(str(p) for p in (folder / "shim", ROOT / "bench", ROOT / "tests"))
    return lambda name: {"PYTHONPATH": path, "DEBRIEF_BENCH_SETS": str(folder / name)}


def against_floor(samples: int) -> dict[str, Any]:
    """Debrief against Flet's floor in one run (see the docstring at the top): the timed taps
    and loads, then, against servers that count (bench/render_count.py), one of each counted."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]
    from floor import floor_app

    from tools.browser import AppServer, chromium

    floor, debrief = Taps(), Taps()
    blocks = [min(BLOCK, samples - done) for done in range(0, samples, BLOCK)]
    loads: dict[str, list[float]] = {"floor": [], "debrief": []}
    with tempfile.TemporaryDirectory() as temporary, chromium() as browser:
        folder = Path(temporary)
        seed(folder / "data")
        with floor_app() as floor_server:
            server = AppServer(folder / "data").start()
            try:
                for _ in range(LOADS):
                    loads["floor"].append(cold_load(browser, floor_server.url, "Add"))
                    loads["debrief"].append(cold_load(browser, server.url, "New game"))
                with opened(browser, [floor_server.url, server.url], counting=False) as pages:
                    play(floor, debrief, pages, blocks)
            finally:
                server.stop()
        # Counted: servers that load bench/render_count.py at start-up.
        env = counting_env(folder)
        with floor_app(env("floor")) as floor_server:
            server = AppServer(folder / "data", env=dict(env("debrief"))).start()
            try:
                with opened(browser, [floor_server.url, server.url], counting=True) as pages:
                    floor.counter = Counter(pages[0], floor_server.pid, folder / "floor")
                    assert server.process is not None
                    debrief.counter = Counter(pages[1], server.process.pid, folder / "debrief")
                    play(floor, debrief, pages, [0])
            finally:
                server.stop()
    floor_ms = statistics.median(floor.ms["floor"][0])
    actions = {
        kind: {
            str(deal): {
                "median_ms": round(statistics.median(ms), 1),
                "ratio": round(statistics.median(ms) / floor_ms, 2),
            }
            for deal, ms in sorted(by_deal.items())
        }
        for kind, by_deal in sorted(debrief.ms.items(), key=lambda item: KINDS.index(item[0]))
    }
    floor_load, load = (statistics.median(loads[app]) for app in ("floor", "debrief"))
    return {
        "floor_ms": round(floor_ms, 1),
        "actions": actions,
        "floor_load_ms": round(floor_load),
        "load_ms": round(load),
        "load_ratio": round(load / floor_load, 2),
        "property_sets": by_kind(debrief.rendered),
        "patched_properties": by_kind(debrief.patched),
        "floor_property_sets": floor.rendered["floor"][0],
        "floor_patched_properties": floor.patched["floor"][0],
        "samples": samples,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--before", help="the commit to compare this tree with")
    which.add_argument("--floor", action="store_true", help="compare with Flet's floor")
    parser.add_argument(
        "--samples", type=int, help="taps of each kind (default 50; 40 with --floor)"
    )
    parser.add_argument("--root", help=argparse.SUPPRESS)  # one measurement, in a child
    args = parser.parse_args()
    if args.floor:
        print(json.dumps(against_floor(args.samples or 40)), flush=True)
        return 0
    args.samples = args.samples or 50
    if args.root:
        print(json.dumps(measure(Path(args.root), args.samples)))
        return 0
    with (
        tempfile.TemporaryDirectory() as folder,
        checked_out(args.before, Path(folder) / "before") as before,
    ):
        for name, root in ((args.before, before), ("this tree", ROOT)):
            child = [sys.executable, __file__, "--before", args.before, "--root", str(root)]
            out = subprocess.run(
                [*child, "--samples", str(args.samples)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            print(json.dumps({"version": name, **json.loads(out.splitlines()[-1])}), flush=True)
    return 0


@contextmanager
def checked_out(commit: str, where: Path) -> Iterator[Path]:
    """`commit` checked out at `where`, a git worktree sharing this tree's .venv; removed
    after (bench/open_ab.py serves one too)."""
    subprocess.run(["git", "worktree", "add", "--detach", str(where), commit], check=True)
    try:
        (where / ".venv").symlink_to(ROOT / ".venv")
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], check=True)


if __name__ == "__main__":
    sys.exit(main())
