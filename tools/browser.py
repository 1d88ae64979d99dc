"""Drive the app in a real browser: the app served in web mode, headless Chromium, Playwright.

Used by the end-to-end tests and by tools/screenshots.py. Flutter draws on a canvas; the
accessibility tree (turned on by clicking its hidden placeholder) exposes every control by
role and name, which is how the tests find buttons and read texts.
"""

from __future__ import annotations

import atexit
import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    sync_playwright,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tools.app_forge import Forge, Forked

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 400, "height": 800}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # CanvasKit needs WebGL; without a GPU, SwiftShader renders it (screenshots are not blank).
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    # No GPU process compositing in software beside it: a quarter less CPU per screen drawn
    # (the browser tests are bound by the CPU that drawing takes).
    "--disable-gpu",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


FORKS = hasattr(os, "fork") and hasattr(os, "pidfd_open")  # Linux: the forge can serve apps
_forge: Forge | None = None


def forge() -> Forge:
    """This process's app forge (tools/app_forge.py), started at its first use."""
    global _forge
    if _forge is None:
        _forge = Forge()
        atexit.register(_forge.close)
    return _forge


class PortTaken(RuntimeError):
    """Another program listens on the port the app was to be served on."""


class AppServer:
    """`python main.py --web` on a free port with its own data folder and launch secret.

    `url` is the link the app prints (it carries the secret); `env` adds to or, with None
    values, removes from the server's environment; `web=False` starts it as `python main.py`;
    `args` are more of its options (`["--share"]`: `printed` then finds the share link and PIN);
    `open_files` caps the process's open files (soft and hard limit, as a system may set them);
    `root` is the tree whose main.py is served (another commit's worktree, for a comparison).
    The app is forked from this process's app forge (tools/app_forge.py), already imported,
    unless `env`, `open_files` or another `root` asks for a Python of its own.
    """

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        secret: str | None = None,
        env: dict[str, str | None] | None = None,
        web: bool = True,
        args: list[str] | None = None,
        open_files: int | None = None,
        root: Path = ROOT,
    ) -> None:
        self.data_dir = data_dir
        self.root = root
        self.open_files = open_files
        self.args = args or []
        self.port = port or free_port()
        self.secret = secret or secrets.token_urlsafe(24)
        self.extra_env = env or {}
        self.web = web
        self.process: subprocess.Popen[bytes] | Forked | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?key={self.secret}"

    @property
    def log(self) -> Path:
        return self.data_dir.parent / f"server-{self.port}.log"

    def start(self) -> AppServer:
        env = {**os.environ, "DEBRIEF_DATA_DIR": str(self.data_dir), "LANG": "en_US.UTF-8"}
        env["DEBRIEF_SECRET"] = self.secret
        for name, value in self.extra_env.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        argv = [*(["--web"] if self.web else []), *self.args, "--port", str(self.port)]
        argv.append("--no-browser")
        if self.extra_env or self.open_files or self.root != ROOT or not FORKS:
            # A test that changes how Python starts (PYTHONPATH, a fault injected by a
            # sitecustomize) or limits the process needs a Python of its own (as does every
            # app on a system without fork and pidfds: the forge needs both).
            log = open(self.log, "ab")  # noqa: SIM115
            self.process = subprocess.Popen(
                [sys.executable, "main.py", *argv],
                cwd=self.root,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=self._limit if self.open_files else None,
            )
        else:
            self.process = forge().spawn(argv, env, self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                printed = self.log.read_text()
                if "address already in use" in printed:
                    raise PortTaken(f"port {self.port} is taken:\n{printed}")
                raise RuntimeError(f"the app ended at start:\n{printed}")
            if self._answers():
                return self
            time.sleep(0.05)  # the server starts in about a second: ask again soon
        raise RuntimeError(f"the app did not start on {self.origin}:\n{self.log.read_text()}")

    def _limit(self) -> None:
        import resource

        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def printed(self, label: str) -> str:
        """What the app last printed after `label` ("Guests open:", "Scorers' PIN:")."""
        for line in reversed(self.log.read_text().splitlines()):
            if line.startswith(label):
                return line.removeprefix(label).strip()
        raise LookupError(f"the app printed no {label!r}:\n{self.log.read_text()}")

    def _answers(self) -> bool:
        """Whether the server answers HTTP on its port (any answer: the guard may refuse)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/")
            return connection.getresponse().status < 500
        except OSError:
            return False
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None


def chromium_executable() -> str:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium)")
    return executable


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


# Whether V8 compiles WebAssembly again with its optimizing compiler (TurboFan) once the code
# runs hot, as on a phone. The browser tests turn it off (tests/conftest.py): Flutter's client
# and Skia are WebAssembly, and a test's page lives a few seconds, in which those compiles (on
# V8's background threads, about 170 ms of CPU a page load) cost more than the faster code gives
# back (bench/tap_cost.py: a tap 10 % less CPU without them). The app does the same either way,
# in the baseline compiler's (Liftoff's) code. The benchmarks of what a player feels keep it on.
optimizing_compiler: bool = True


def flags() -> list[str]:
    """Chromium's command line: `CHROMIUM_FLAGS`, and V8's as `optimizing_compiler` says."""
    return CHROMIUM_FLAGS if optimizing_compiler else [*CHROMIUM_FLAGS, "--js-flags=--liftoff-only"]


def launch(playwright: Playwright) -> Browser:
    """Headless Chromium: each `new_context` of it is a new device."""
    return playwright.chromium.launch(executable_path=chromium_executable(), args=flags())


@contextlib.contextmanager
def browser_speaking(browser: Browser, languages: str) -> Iterator[Browser]:
    """Another headless Chromium beside `browser`, whose language settings are `languages`
    ("de-DE,de"): a phone set to that language. A context's `locale` is not one: Chromium 150
    sends the browser's own Accept-Language with a websocket's handshake, where the app reads a
    guest's language, and Playwright changes it only for the page's other requests."""
    speaking = browser.browser_type.launch(
        executable_path=chromium_executable(), args=[*flags(), f"--accept-lang={languages}"]
    )
    try:
        yield speaking
    finally:
        speaking.close()


def launch_phone(playwright: Playwright, profile: Path) -> BrowserContext:
    """One phone-sized browser profile kept in `profile`: unlike a new context, its cache keeps
    the web client compiled from one page to the next. Its pages get a new device's storage
    with `forget_site`."""
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=chromium_executable(), args=flags(), viewport=PHONE
    )


def processes() -> dict[int, tuple[int, float]]:
    """Every process on the system (from /proc: Linux): its parent and the CPU seconds it has
    used, user and system."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # it has ended
            fields = stat[stat.rfind(")") + 2 :].split()  # after the name, which may hold spaces
            found[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return found


def descendants(ancestor: int, running: dict[int, tuple[int, float]]) -> list[int]:
    """Every process below `ancestor` among `running` (`processes`)."""
    children: dict[int, list[int]] = {}
    for child, (parent, _) in running.items():
        children.setdefault(parent, []).append(child)
    found, todo = [], [ancestor]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def busy_renderers(ancestor: int, seconds: float = 1.0) -> list[int]:
    """Chromium's renderer processes below the process `ancestor` that used more than a tenth
    of a core through `seconds` (read from /proc: Linux; elsewhere none). A page that waits
    uses next to none; one in a loop that never returns uses what it gets, on a loaded
    machine a share of a core."""
    if not Path("/proc/self/stat").exists():
        return []
    before = processes()
    renderers = [pid for pid in descendants(ancestor, before) if is_renderer(pid)]
    time.sleep(seconds)
    after = processes()
    used = {pid: after[pid][1] - before[pid][1] for pid in renderers if pid in after}
    return [pid for pid, cpu in used.items() if cpu > seconds / 10]


def is_renderer(pid: int) -> bool:
    try:
        return b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def end_busy_renderers(ancestor: int) -> list[int]:
    """End (SIGKILL) the renderers below `ancestor` that are busy (`busy_renderers`): a page
    whose main thread never returns takes Playwright's timeouts with it (their clean-up waits
    on the page), and its call then fails with the page's crash. Returns those ended."""
    ended = busy_renderers(ancestor)
    for pid in ended:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return ended


# Everything a site keeps in the browser except the HTTP cache (which holds no state of ours).
SITE_STORAGE = (
    "cookies,local_storage,indexeddb,websql,service_workers,cache_storage,file_systems,shader_cache"
)


def forget_site(context: BrowserContext, origin: str) -> None:
    """Remove what `origin` stored in the browser (cookies, local and session storage, where
    Flet's client keeps its session id, databases): the next page of that origin starts as on
    a new device (tests/test_e2e_phone.py)."""
    opened = [page for page in context.pages if not page.is_closed()]
    helper = opened[0] if opened else context.new_page()  # any page of the browser will do
    try:
        session = context.new_cdp_session(helper)
        session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": SITE_STORAGE})
        session.detach()
    finally:
        if not opened:
            helper.close()
    # A tab's session storage is its own, and Chromium 150 no longer clears it with the
    # origin's local storage: a tab kept on the origin (`put_away`'s still document) would
    # hand Flet's session id on to the next page loaded in it.
    for page in opened:
        if page.url.startswith(origin + "/"):
            page.evaluate("() => sessionStorage.clear()")


# Frames a second the app's pages draw at (None: as the display, 60). Slower frames widen the
# moments in which a tap can meet a screen Flutter has not redrawn yet: the browser tests set it
# from DEBRIEF_TEST_FPS (tests/conftest.py) to bring out lost taps that load causes rarely.
# (Measured, 2 cores: at 15 a Black Spy deal took 37% less CPU, but the e2e tests did not end
# sooner, the waits for frames grew as much.)
frames_per_second: int | None = None

# Paces requestAnimationFrame: the callbacks asked for are run together at the next tick of
# the slower clock, in one native animation frame (as the browser runs them).
PACED_FRAMES = """((perSecond) => {
    const native = window.requestAnimationFrame.bind(window);
    const period = 1000 / perSecond;
    let due = new Map();  // id -> callback, for the next paced frame
    let nextId = 1;
    let scheduled = false;  // one paced frame at a time, whatever was cancelled meanwhile
    let lastTick = -Infinity;  // the tick of the slower clock the last paced frame was for
    const frame = (time) => {
        scheduled = false;
        const running = due;
        due = new Map();
        running.forEach((callback) => {
            try { callback(time); } catch (error) { reportError(error); }
        });
    };
    window.requestAnimationFrame = (callback) => {
        if (!scheduled) {
            scheduled = true;
            // The next tick, never the last frame's again: a timer may fire a moment before
            // its time, and a frame asked for in a frame run early would fall in the same tick.
            const now = performance.now();
            const tick = Math.max((Math.floor(now / period) + 1) * period, lastTick + period);
            setTimeout(() => native((time) => { lastTick = tick; frame(time); }), tick - now);
        }
        due.set(nextId, callback);
        return nextId++;
    };
    window.cancelAnimationFrame = (id) => { due.delete(id); };
})"""


# How much faster than real time the app's animations run (1: as on a phone). The browser
# tests play them a hundred times as fast (tests/conftest.py), as Android's UI tests are run with
# the system's animation scale turned down: a page's slide or a button's ripple is drawn in a
# few frames instead of twenty to forty, and the CPU that drawing them took (a third of the
# tests' time) goes to the next step. Flutter times every animation by the frames' clock.
animation_speed: float = 1

# Runs Flutter's animations faster: the time each animation frame is given moves on `faster`
# times as fast as the real clock (the frames themselves come as the display draws them).
TIME_LAPSE = """((faster) => {
    const native = window.requestAnimationFrame.bind(window);
    const start = performance.now();
    window.requestAnimationFrame = (callback) =>
        native((time) => callback(start + (time - start) * faster));
})"""


def open_app(
    browser: Browser | BrowserContext,
    url: str,
    size: dict[str, int] = PHONE,
    before_load: Callable[[Page], object] | None = None,
) -> Page:
    """A new page on the app, with Flutter's accessibility tree turned on and the app's first
    screen drawn. From a `Browser`, the page is a new device (its own storage); from a page's
    `context`, it is another tab of that device. `before_load` is given the page before it
    loads the app (to route its connections, say)."""
    context = browser.new_context(viewport=size) if isinstance(browser, Browser) else browser
    page = context.new_page()
    if before_load is not None:
        before_load(page)
    page.set_viewport_size(size)  # type: ignore[arg-type]
    if frames_per_second:
        page.add_init_script(f"{PACED_FRAMES}({frames_per_second})")
    if animation_speed != 1:
        page.add_init_script(f"{TIME_LAPSE}({animation_speed})")
    page.add_init_script(WATCH_SERVER)
    page.goto(url)
    accessible(page)
    return page


def reload(page: Page) -> None:
    """Reload the page (the same device and tab) and wait for the app's first screen."""
    page.reload()
    accessible(page)


def accessible(page: Page) -> None:
    """Turn on Flutter's accessibility tree and wait for the app's first screen."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.locator("flt-semantics-placeholder").dispatch_event("click")
    page.wait_for_selector("flt-semantics", state="attached", timeout=30_000)
    # A function, not an expression: Playwright would eval() an expression (the policy forbids).
    page.wait_for_function(
        "() => window.__debrief && window.__debrief.until(() => window.__debrief.received > 0)",
        timeout=30_000,
    )
    painted(page)


# --- actions that wait for the app's answer ---------------------------------------------------
#
# Every step of the app is a round trip to the Python server: a tap goes up the websocket, the
# server's redraw comes back down and Flutter paints it. The next tap must wait for that answer:
# a redraw that lands between a tap's press and release moves what is under the finger and the
# tap is lost. So every action waits for the server's next message after it and for the frame
# that paints it: the app's state, not a time.

WATCH_SERVER = """(() => {
    const Native = window.WebSocket;
    // received: every message from the server; answers: those that draw (not the ones that
    // only change the browser's address, which the screen's drawing follows; nor those that
    // only say which services the page has).
    const counts = window.__debrief = {sent: 0, received: 0, answers: 0};
    // `counts.until(test)`: a promise that resolves once `test()` holds, checked whenever a
    // message comes or goes, once the page has handled it (Flutter's client reads a message
    // in a task of its own). The waits below return it to Playwright, which then waits on it
    // alone: a predicate that Playwright polls is run at every animation frame, and each such
    // frame cost as much CPU as a seventh of the time waited.
    const waiting = new Set();
    counts.until = (test) => new Promise((done) => {
        const check = () => {
            if (!test()) return;
            waiting.delete(check);
            done(true);
        };
        waiting.add(check);
        check();
    });
    const changed = () => {
        if (waiting.size) setTimeout(() => waiting.forEach((check) => check()), 0);
    };
    // A test may keep the server's drawing messages (`kept_answers`): each one's opening, as
    // text, to see what came in which order.
    counts.kept = null;  // null: none kept; a list: the openings of those that came since
    const keep = (event) => {
        if (counts.kept === null || !(event.data instanceof ArrayBuffer)) return;
        const opening = new Uint8Array(event.data, 0, Math.min(event.data.byteLength, 4096));
        counts.kept.push(new TextDecoder("latin1").decode(opening));
    };
    // A test may hold the server's messages back (`hold()`) to tap while an answer is still
    // on its way, as a finger does on a slow network, and then deliver them (`release()`).
    let held = null;  // null: messages are delivered; a list: the deliveries waiting
    counts.hold = () => { held = held || []; };
    counts.release = () => {
        const due = held || [];
        held = null;
        due.forEach(deliver => deliver());
    };
    // A test may note the kind and size of each message from the server, in order
    // (`noted_messages`): "address" (a change of the browser's address), "services" or
    // "answer" (one that draws).
    counts.noted = null;  // null: none noted; a list: [kind, bytes] of those that came since
    // The last messages the page sent, readable (a failure says what the page told the app).
    counts.lastSent = [];
    const readable = (data) => (typeof data === "string" ? data
        : new TextDecoder("latin1").decode(data).slice(0, 160)).replace(/[^\x20-\x7e]+/g, " ");
    const shortSaying = (event, word) => (event.data instanceof ArrayBuffer
        || ArrayBuffer.isView(event.data))  // a websocket's buffer, or a worker's bytes
        && event.data.byteLength < 512  // it is short: a screen's long messages are not read
        && new TextDecoder("latin1").decode(event.data).includes(word);
    const changesAddress = (event) => shortSaying(event, "push_route");
    // Flet tells the page of each service (a wake lock, the device's preferences) made or
    // dropped in a message of its own, ahead of the redraw of the same tap: after the first
    // tap past a dropped service, the next message is that one. It draws nothing; counted
    // as the answer, a test tapped the screen the redraw was about to replace (a Kompromat
    // mission card, chosen on the quick form a moment before the cards form came).
    const onlyServices = (event) => shortSaying(event, "_services");
    class Watched extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => {
                counts.received += 1;
                const kind = changesAddress(event) ? "address"
                    : onlyServices(event) ? "services" : "answer";
                if (counts.noted !== null) counts.noted.push([kind, event.data.byteLength || 0]);
                if (kind === "answer") {
                    counts.answers += 1;
                    keep(event);
                }
                changed();
            });
        }
        addEventListener(type, listener, options) {
            if (type !== "message" || !listener) {
                return super.addEventListener(type, listener, options);
            }
            const gated = (event) => {
                const deliver = () => listener.call(this, event);
                if (held) {
                    held.push(deliver);
                } else {
                    deliver();
                }
            };
            return super.addEventListener(type, gated, options);
        }
        send(data) {
            counts.sent += 1;
            counts.lastSent = [...counts.lastSent.slice(-7), readable(data)];
            changed();
            return super.send(data);
        }
    }
    window.WebSocket = Watched;
    // The static site (tools/publish.py) runs the app in a worker of the page (Pyodide): its
    // messages are the server's. Each starts with a byte that says its kind: 0 for Flet's
    // protocol; a print of the app's is one too ([7, …]), but draws nothing.
    const printed = (data) => data[1] === 0x92 && data[2] === 0x07;
    class WatchedWorker extends window.Worker {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => {
                if (!ArrayBuffer.isView(event.data) || printed(event.data)) return;
                counts.received += 1;
                if (!changesAddress(event) && !onlyServices(event)) counts.answers += 1;
                changed();
            });
        }
        postMessage(data, ...rest) {
            if (ArrayBuffer.isView(data)) {  // not the worker's start
                counts.sent += 1;
                changed();
            }
            return super.postMessage(data, ...rest);
        }
    }
    window.Worker = WatchedWorker;
    // Flutter asks for an animation frame for as long as anything on its canvas moves (a
    // chip or row animating in, a page sliding, a scroll coasting), also while its
    // accessibility tree stays as it is: `settled` counts these asks to know when the screen
    // is still. The waits' own frames go to `counts.frame`, uncounted.
    const nativeFrame = window.requestAnimationFrame.bind(window);
    counts.frame = nativeFrame;
    counts.framesAsked = 0;
    window.requestAnimationFrame = (callback) => {
        counts.framesAsked += 1;
        return nativeFrame(callback);
    };
    // Flutter listens to a text field's <input> only once the field has the framework's focus;
    // text typed before that is dropped. Count its "input" listeners to know when it listens.
    const inputListeners = new WeakMap();  // element -> the set of its "input" listeners
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (type, listener, options) {
        if (type === "input" && listener) {
            if (!inputListeners.has(this)) inputListeners.set(this, new Set());
            inputListeners.get(this).add(listener);
        }
        return add.call(this, type, listener, options);
    };
    EventTarget.prototype.removeEventListener = function (type, listener, options) {
        if (type === "input" && inputListeners.has(this)) inputListeners.get(this).delete(listener);
        return remove.call(this, type, listener, options);
    };
    counts.editing = (label) => {
        const field = document.activeElement;
        return !!field && ["INPUT", "TEXTAREA"].includes(field.tagName)
            && (!label || field.getAttribute("aria-label") === label)
            && (inputListeners.get(field)?.size || 0) > 0;
    };
})();"""


def held_answers(page: Page) -> None:
    """Keep the server's next messages from the app until `released_answers`."""
    page.evaluate("window.__debrief.hold()")


def released_answers(page: Page) -> None:
    """Deliver the held messages in order, and wait until Flutter has painted them."""
    page.evaluate("window.__debrief.release()")
    painted(page)


def noting_messages(page: Page) -> None:
    """Note the kind of every message from the server from now on (`noted_messages`)."""
    page.evaluate("window.__debrief.noted = []")


def noted_messages(page: Page) -> list[tuple[str, int]]:
    """The server's messages since `noting_messages`, in the order they came: each one's kind
    ("address": a change of the browser's address, "services", or "answer": one that draws)
    and its size in bytes."""
    return [(str(kind), int(size)) for kind, size in page.evaluate("window.__debrief.noted")]


def keeping_answers(page: Page) -> None:
    """Keep the opening of every drawing message from the server from now on (`kept_answers`)."""
    page.evaluate("window.__debrief.kept = []")


def kept_answers(page: Page) -> list[str]:
    """The openings (as latin-1 text) of the drawing messages since `keeping_answers`."""
    return list(page.evaluate("window.__debrief.kept"))


def received(page: Page) -> int:
    """How many answers the server has sent this page: messages that draw (a tap that opens
    another screen is first answered with the new address; the screen follows it)."""
    return int(page.evaluate("window.__debrief.answers"))


def messages_sent(page: Page) -> int:
    """How many messages the page has sent the server (taps, typing, the page's changes)."""
    return int(page.evaluate("window.__debrief.sent"))


def last_sent(page: Page) -> list[str]:
    """The last eight messages the page sent the server, their readable characters (a failed
    test's message says what the page told the app)."""
    return list(page.evaluate("window.__debrief.lastSent"))


# Every wait on the page is a `wait_for_function` with a timeout, never a bare `evaluate` of a
# promise: Playwright's timeout runs outside the page, so a page that stops drawing (or whose
# script never returns) fails the test in seconds instead of holding its worker forever.
PAGE_WAIT = 30_000  # ms: far above any answer of the app under load, far below a hung run

# The animation frames the waits below count by: the page's own, not counted as the app's
# (on a page without the app's watch, the window's).
WAIT_FRAME = "((window.__debrief && window.__debrief.frame) || requestAnimationFrame)"

# Resolves true (a wait ends on a true value) after the next two animation frames.
TWO_FRAMES = f"""() => new Promise(done => {{
    const frame = {WAIT_FRAME};
    frame(() => frame(() => done(true)));
}})"""


def painted(page: Page, timeout: float = PAGE_WAIT) -> None:
    """Wait for Flutter to paint what has arrived (two animation frames)."""
    try:
        page.wait_for_function(TWO_FRAMES, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the page drew no frame in {timeout / 1000:.0f} s") from None


# Resolves once the server has answered after `before` answers and two frames have been drawn
# since (one wait, one round trip to the browser: each costs the CPU the tests are bound by).
ANSWERED_AND_PAINTED = f"""before => window.__debrief.until(() => window.__debrief.answers > before)
    .then({TWO_FRAMES})"""


def answered(page: Page, before: int, timeout: float = 15_000) -> None:
    """Wait until the server has answered an action (a message after `before`), painted."""
    page.wait_for_function(ANSWERED_AND_PAINTED, arg=before, timeout=timeout)


def tap(page: Page, name: str, role: str = "button", timeout: float = 15_000) -> None:
    """Tap the control with this accessible name, once it is there and enabled, and wait for
    the app's answer."""
    click_answered(page, shown_control(page, name, role, timeout), name, timeout)


def shown_control(page: Page, name: str, role: str, timeout: float = 15_000) -> Locator:
    """The control of this role and accessible name, once it is shown."""
    target = page.get_by_role(role, name=name, exact=True).first  # type: ignore[arg-type]
    target.wait_for(state="visible", timeout=timeout)
    return target


def gone_up(page: Page, sent: int, timeout: float = 15_000) -> None:
    """Wait until the page has sent the server a message after its first `sent` ones."""
    page.wait_for_function(
        "sent => window.__debrief.until(() => window.__debrief.sent > sent)",
        arg=sent,
        timeout=timeout,
    )


def click_answered(page: Page, target: Locator, name: str, timeout: float = 15_000) -> None:
    """Click a control that is there (brought into view first) and wait for the app's answer;
    if none comes, say which side lost the tap: the page never sent it, or the server never
    answered. A mouse's click, not a touch: with Flutter's accessibility tree on (the tests
    find controls by it), its engine holds a touch back and sends it as the tree's tap, as a
    screen reader's is, not as a finger's; and with touches, a page once stayed busy for
    minutes in a test's Save."""
    before, sent = in_view(page, target)
    target.click(timeout=timeout)
    try:
        answered(page, before, timeout)
    except PlaywrightTimeout:
        went = messages_sent(page) - sent
        raise AssertionError(
            f"tap {name!r}: no answer within {timeout / 1000:.0f} s; the page sent "
            f"{went} message(s) after the click and received {received(page) - before}; "
            f"{where_it_went(page, target)}"
        ) from None


def tap_unchanged(page: Page, name: str, role: str = "button", timeout: float = 15_000) -> None:
    """Tap a control whose tap changes nothing on the screen (the pile being typed, tapped
    again): the app answers with no drawing, so wait only until the tap has gone up the
    websocket, ahead of the next one. (Such a tap seemed answered while a note was up: by
    the note going away.)"""
    target = shown_control(page, name, role, timeout)
    _, sent = in_view(page, target)
    target.click(timeout=timeout)
    gone_up(page, sent, timeout)


# What a lost tap hit: the accessibility node at the control's centre, and what had focus.
HIT = """([x, y]) => {
    const named = (e) =>
        e ? `${e.tagName.toLowerCase()} ${e.getAttribute("aria-label") || ""}` : "nothing";
    return [named(document.elementFromPoint(x, y)), named(document.activeElement)];
}"""


def where_it_went(page: Page, target: Locator) -> str:
    """Where a control is now, what the page has at its centre and what has the keyboard: a
    lost tap's clues (the control moved, something covered it, a field kept the focus)."""
    box = target.bounding_box()
    if box is None:
        return "the control is gone"
    centre = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    hit, focused = page.evaluate(HIT, centre)
    return (
        f"the control is at {box['x']:.0f},{box['y']:.0f} ({box['width']:.0f}x"
        f"{box['height']:.0f}) on a {page.viewport_size} page, its centre hits {hit!r}, "
        f"the focus is on {focused!r}"
    )


# Whether the control lies wholly inside the window and, top to bottom, inside every box that
# scrolls it; if not, it is scrolled to their middle (and false returned).
SHOWN_WHOLE = """(element) => {
    // Layout puts boxes at fractions of a pixel: the last control of a page scrolled to its
    // end ends a third of a pixel below its box, and cannot be scrolled further.
    const slack = 1;
    const box = element.getBoundingClientRect();
    let whole = box.top >= -slack && box.bottom <= innerHeight + slack && box.left >= -slack
        && box.right <= innerWidth + slack;
    // Flutter's page scrolls up and down: a box that can scroll so (its overflow hidden or
    // not, the browser scrolls it all the same) must hold the control from top to bottom.
    for (let around = element.parentElement; whole && around; around = around.parentElement) {
        const clips = getComputedStyle(around).overflowY !== "visible";
        if (clips && around.scrollHeight > around.clientHeight) {
            const area = around.getBoundingClientRect();
            const fits = box.height <= area.height;  // a taller one is as whole as it gets
            whole = !fits || (box.top >= area.top - slack && box.bottom <= area.bottom + slack);
        }
    }
    if (!whole) element.scrollIntoView({block: "center", inline: "nearest"});
    return whole;
}"""


# Closes the keyboard of a text field that has it, as a player taps Done before tapping a button
# under it (true if it did): a button tapped while a field still edits took the focus from it,
# and Flutter gave it back to the field and scrolled its page to the field, away from the
# button, before the tap came (it hit nothing).
CLOSE_KEYBOARD = """() => {
    const field = document.activeElement;
    if (!field || !["INPUT", "TEXTAREA"].includes(field.tagName)) return false;
    field.blur();
    return true;
}"""


# Ready for a tap on the element: the keyboard closed (`CLOSE_KEYBOARD`) and the element shown
# whole (`SHOWN_WHOLE`), with the page's message counts at that point; one round trip.
READY_TO_TAP = f"""(element) => {{
    const closed = ({CLOSE_KEYBOARD})();  // then Flutter moves things: look again once settled
    return {{
        closed,
        whole: !closed && ({SHOWN_WHOLE})(element),
        answers: window.__debrief.answers,
        sent: window.__debrief.sent,
    }};
}}"""


def in_view(page: Page, target: Locator, attempts: int = 5) -> tuple[int, int]:
    """Bring a control wholly onto the screen, away from the edges of the boxes that scroll it,
    and wait until Flutter has drawn it there; a text field's keyboard is closed first (see
    `CLOSE_KEYBOARD`). Flutter takes a scroll of its accessibility nodes (Playwright's before
    a click, or the browser's when a click focuses a control at the edge of its box) as the
    user scrolling its page, and follows it a frame or more later; a click in between hit what
    Flutter still drew at that point, under load nothing, and the tap was lost. A control
    shown whole needs no scroll from either. Returns the answers the page has received and
    the messages it has sent (`received`, `messages_sent`) once the control is ready."""
    for _ in range(attempts):
        ready = target.evaluate(READY_TO_TAP)
        if ready["whole"]:  # never while a keyboard was just closed
            return int(ready["answers"]), int(ready["sent"])
        settled(page)
    raise AssertionError(f"{where_it_went(page, target)}: not shown whole after scrolling")


def type_text(page: Page, field: str, text: str, submit: bool = False, drawn: bool = True) -> None:
    """Type into the text field labelled `field`, once Flutter edits it (it listens to the
    field's input only after the framework has focused it), and wait for the app's answer.
    A field that already has the keyboard is typed into as it is. `drawn=False`: a field whose
    change the app answers with nothing (what was typed is already on the screen, e.g. a
    birth date on New game): wait only until the change has gone up the websocket, ahead of
    the next tap."""
    box = page.get_by_role("textbox", name=field, exact=True).first
    box.wait_for(state="visible", timeout=15_000)
    if not editing(page, field):
        in_view(page, box)
        settled(page)
        box.click()
        page.wait_for_function(EDITING, arg=field, timeout=15_000)
    before, sent = received(page), messages_sent(page)
    box.fill(text)
    if submit:
        page.keyboard.press("Enter")
    if drawn:
        answered(page, before)
    else:
        gone_up(page, sent)


EDITING = "field => window.__debrief.editing(field)"
# Resolves once, for three animation frames, the page's elements have neither changed nor
# scrolled and the app has asked for no frame (nothing moves on its canvas either).
SETTLED = f"""() => new Promise(done => {{
    const frame = {WAIT_FRAME};
    const asked = () => window.__debrief ? window.__debrief.framesAsked : 0;
    let quiet = 0;
    let askedBefore = asked();
    const moved = () => {{ quiet = 0; }};
    const observer = new MutationObserver(moved);
    observer.observe(document.body, {{subtree: true, childList: true, attributes: true}});
    // A scroll changes no attribute, and Flutter answers one a frame or more later.
    document.addEventListener("scroll", moved, true);
    const step = () => {{
        if (asked() !== askedBefore) {{
            askedBefore = asked();
            quiet = 0;
        }}
        if (++quiet < 3) return frame(step);
        observer.disconnect();
        document.removeEventListener("scroll", moved, true);
        done(true);
    }};
    frame(step);
}})"""


def settled(page: Page, timeout: float = PAGE_WAIT) -> None:
    """Wait until the screen has stopped changing: Flutter's animations after an answer have
    ended, on its canvas too. Flutter's web engine moves a text field's element in the page
    when the controls around it have finished animating (after each name added on New game,
    about 0.25 s after the answer); a moved element loses the keyboard and what is typed into
    it, so a field is tapped only once the screen is still."""
    try:
        page.wait_for_function(SETTLED, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the screen kept changing for {timeout / 1000:.0f} s") from None


def editing(page: Page, field: str) -> bool:
    """Whether the text field labelled `field` has the keyboard (Flutter listens to it)."""
    return bool(page.evaluate(EDITING, field))


def css_string(text: str) -> str:
    """`text` as a quoted string in a CSS selector."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def showing(page: Page, text: str) -> Locator:
    """Every node that shows `text`: in a control's text, or in its accessible label (Flutter
    writes the text of a control that holds a button, such as a note with its action, as the
    label of its node, not as text in it)."""
    label = page.locator(f"flt-semantics[aria-label*={css_string(text)}]")
    return page.get_by_text(text, exact=False).or_(label)


def see(page: Page, text: str, timeout: float = 15_000) -> None:
    """Wait until `text` is shown (`showing`)."""
    showing(page, text).first.wait_for(state="attached", timeout=timeout)


def shot(page: Page, path: Path | str, full: bool = False) -> None:
    """A screenshot once what has arrived is painted (chips and buttons animate on a state
    change; their animations end within a few frames)."""
    painted(page)
    page.wait_for_timeout(400)  # tools only: let Material's ink and chip animations end
    page.screenshot(path=str(path), full_page=full)
