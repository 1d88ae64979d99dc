"""Fixtures for the browser tests (the app served from a temporary data folder, and Chromium)
and for the screen tests (the app in-process: `screen`, `seated`, `screen_tables`)."""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import cpu_report
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# The frame rate the app's pages draw at in the browser tests: the display's, unless
# DEBRIEF_TEST_FPS slows it (to reproduce what load does to taps; see tools/browser.py).
FRAMES_PER_SECOND = int(os.environ.get("DEBRIEF_TEST_FPS") or 0) or None
# How much faster than on a phone the app's animations run in the browser tests (see
# tools/browser.py): a hundred times, unless DEBRIEF_TEST_ANIMATION_SPEED says otherwise (1:
# real).
ANIMATION_SPEED = float(os.environ.get("DEBRIEF_TEST_ANIMATION_SPEED") or 100)
# Whether the browser tests' Chromium compiles the page's WebAssembly again with V8's optimizing
# compiler, as a phone's does: not unless DEBRIEF_TEST_OPTIMIZE=1 (see tools/browser.py).
OPTIMIZING_COMPILER = os.environ.get("DEBRIEF_TEST_OPTIMIZE") == "1"


@pytest.fixture(scope="session")
def playwright() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    from tools import browser

    browser.frames_per_second = FRAMES_PER_SECOND
    browser.animation_speed = ANIMATION_SPEED
    browser.optimizing_compiler = OPTIMIZING_COMPILER
    with sync_playwright() as driver:
        yield driver


# A browser test's page whose main thread never returns takes Playwright's timeouts with it
# (their clean-up waits on the page): seen once, a Save whose page stayed busy for minutes, and
# the whole run waited. After this long, far above any browser test's own time (the longest
# takes about a minute under load), the pages still busy are ended: the test fails.
WEDGED_AFTER_S = 300


# Any test still running this long holds the run for no reason (a loop that never ends: an
# import-kill test spun for minutes once): its worker writes where every thread is and ends, and
# the test fails (pytest-xdist reports the worker crashed, and starts another).
HUNG_AFTER_S = WEDGED_AFTER_S + 60


# Where a hung test's worker writes its threads' stacks: a folder the whole run shares (made by
# the main process, inherited by pytest-xdist's workers), read out at the end of the run. The
# worker's own standard error is pytest's capture file while a test runs, gone with the worker.
HUNG_FOLDER = "DEBRIEF_TEST_HUNG_FOLDER"


@pytest.fixture(scope="session")
def hung_stacks_file() -> Iterator[Any]:
    folder = Path(os.environ[HUNG_FOLDER])
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with (folder / f"{worker}-{os.getpid()}.txt").open("w") as file:
        yield file


@pytest.fixture(autouse=True)
def no_test_holds_the_run(request: pytest.FixtureRequest, hung_stacks_file: Any) -> Iterator[None]:
    hung_stacks_file.seek(0)
    hung_stacks_file.truncate()
    hung_stacks_file.write(f"{request.node.nodeid} ran {HUNG_AFTER_S} s; its threads:\n")
    hung_stacks_file.flush()
    faulthandler.dump_traceback_later(HUNG_AFTER_S, exit=True, file=hung_stacks_file)
    yield
    faulthandler.cancel_dump_traceback_later()
    hung_stacks_file.seek(0)
    hung_stacks_file.truncate()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Where each test that hung was, as its worker wrote it before it ended."""
    folder = os.environ.get(HUNG_FOLDER)
    if folder is None or hasattr(terminalreporter.config, "workerinput"):
        return
    for written in sorted(Path(folder).glob("*.txt")):
        if written.stat().st_size:
            terminalreporter.write_sep("=", f"hung: {written.name}")
            terminalreporter.write_line(written.read_text())


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and HUNG_FOLDER in os.environ:
        import shutil

        shutil.rmtree(os.environ.pop(HUNG_FOLDER), ignore_errors=True)


@pytest.fixture(autouse=True)
def watchdog(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a browser test: its busy pages ended once it has run `WEDGED_AFTER_S` (see there)."""
    if request.node.get_closest_marker("e2e") is None:
        yield
        return
    from tools.browser import end_busy_renderers

    ended: list[int] = []
    timer = threading.Timer(WEDGED_AFTER_S, lambda: ended.extend(end_busy_renderers(os.getpid())))
    timer.daemon = True
    timer.start()
    yield
    timer.cancel()
    if ended:
        pytest.fail(f"a page stayed busy for {WEDGED_AFTER_S} s; its renderer was ended")


@pytest.fixture(scope="session")
def devices(playwright: object) -> Iterator[object]:
    from tools.browser import launch

    opened = launch(playwright)  # type: ignore[arg-type]
    yield opened
    opened.close()


@pytest.fixture
def browser(devices: object) -> Iterator[object]:
    """Chromium: each of its `new_context`s is another device. The devices a test opened are
    closed after it: a page left open keeps drawing, and took the CPU from every later test."""
    yield devices
    for context in devices.contexts:  # type: ignore[attr-defined]
        context.close()


@pytest.fixture(scope="session")
def phone(playwright: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The phone most tests play on: one Chromium profile kept for the whole session (each test
    still gets the app loaded anew with nothing stored, see `open_on_phone`). Flet's web
    client is 17 MB of JavaScript and WebAssembly; kept in this profile's cache, the next
    test's page loads it compiled instead of compiling it again (2.5 s of CPU less a test)."""
    from tools.browser import launch_phone

    context = launch_phone(playwright, tmp_path_factory.mktemp("phone-profile"))  # type: ignore[arg-type]
    yield context
    context.close()


@pytest.fixture(scope="session")
def second_phone(playwright: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Another phone kept for the session, as `phone` is: a guest's at a shared table (whose
    door, at the app's port + 1, also stays from test to test), with its cache kept."""
    from tools.browser import launch_phone

    context = launch_phone(playwright, tmp_path_factory.mktemp("second-phone-profile"))  # type: ignore[arg-type]
    yield context
    context.close()


@pytest.fixture
def guest_phone(
    second_phone: object, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], Any]]:
    """`guest_phone(link)`: a page on `second_phone` opened on a link as a new device would
    (nothing stored), put away after the test as `page` is."""
    opened: list[Any] = []

    def open_link(link: str) -> Any:
        opened.append(open_link_on_phone(second_phone, link))
        return opened[-1]

    yield open_link
    for page in opened:
        put_away(page, request)


@pytest.fixture(scope="session")
def app_port() -> list[int]:
    """The port this test process serves the app on, test after test: the browser's cache is
    kept per address, port included. A list, so that `app` can move it when it is taken."""
    from tools.browser import free_port

    return [free_port()]


def serve(
    folder: Path,
    app_port: list[int],
    env: dict[str, str | None] | None = None,
    args: list[str] | None = None,
) -> Any:
    """The app served from `folder` (with `env` added to its environment, and `args`) on this
    process's port (moved when another program took it between two tests: a cache miss). A
    shared table's door takes the next port, also kept from test to test while it is free."""
    from tools.browser import AppServer, PortTaken, free_port

    try:
        return AppServer(folder, port=app_port[0], env=env, args=args).start()
    except PortTaken:
        app_port[0] = free_port()
        return AppServer(folder, port=app_port[0], env=env, args=args).start()


@pytest.fixture
def app(tmp_path: Path, app_port: list[int], request: pytest.FixtureRequest) -> Iterator[object]:
    server = serve(tmp_path / "data", app_port)
    yield server
    server.stop()
    nothing_failed_in(server, request)


def nothing_failed_in(server: Any, request: pytest.FixtureRequest) -> None:
    """After a test: the app logged no traceback. A drawing, an event or an effect that fails
    is told to the player in a short note and the session goes on (views/safe.py), so a
    failure the page shows as a note is found here (a brightness event failed at every reload
    unseen). A test that makes the app fail on purpose is marked `fails_on_purpose`."""
    if request.node.get_closest_marker("fails_on_purpose") or not server.log.exists():
        return
    logged = server.log.read_text(errors="replace")
    if "Traceback" in logged:
        start = logged.index("Traceback")
        pytest.fail(f"the app logged a failure:\n{logged[max(0, start - 300) : start + 3000]}")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    """A data folder of its own, opened (a module may have its own `store` instead)."""
    from storage import Store

    opened = Store.open(tmp_path / "data")
    yield opened
    opened.close()


FAILURE_SHOTS = Path(__file__).resolve().parent.parent / "test-failures"
SHOT_TIMEOUT_MS = 10_000  # a failed test's screenshot; a page that does not draw by then: ended


def pytest_addoption(parser: pytest.Parser) -> None:
    cpu_report.add_option(parser)


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the main process: its workers inherit the folder
        import tempfile

        os.environ[HUNG_FOLDER] = tempfile.mkdtemp(prefix="debrief-hung-")
    cpu_report.configure(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests (marked `long`) each at the start of one worker's share: handed out
    last, one of them kept a single worker busy while the others had nothing left (the run
    waited on its tail). pytest-xdist's worksteal gives each of its workers an equal run of
    the tests in this order (the others steal from the end of a run, never its start)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    long = [item for item in items if item.get_closest_marker("long")]
    rest = [item for item in items if not item.get_closest_marker("long")]
    share = -(-len(items) // workers)  # each worker's run, the last one's shorter
    runs: list[list[pytest.Item]] = [long[worker::workers] for worker in range(workers)]
    for run in runs:
        while len(run) < share and rest:
            run.append(rest.pop(0))
    items[:] = [item for run in runs for item in run] + rest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.failed_call = report.failed  # type: ignore[attr-defined]


# The page each phone keeps from one test to the next (by the context's id): loading the app
# again in it costs a third less CPU than a new page (which starts a renderer process).
KEPT: dict[int, Any] = {}


def open_on_phone(phone: Any, app: Any) -> Any:
    """The app in a phone-sized page, on a phone with nothing stored (as a new device): the
    page a test before put away, loaded anew (nothing of its document is left), or a new one."""
    return open_link_on_phone(phone, app.url)


def open_link_on_phone(phone: Any, url: str) -> Any:
    """`open_on_phone` for a link (a shared table's, say)."""
    from tools.browser import PHONE, accessible, forget_site, open_app

    address = urlsplit(url)
    forget_site(phone, f"{address.scheme}://{address.netloc}")
    kept = KEPT.pop(id(phone), None)
    if kept is None or kept.is_closed():
        return open_app(phone, url)
    kept.set_viewport_size(PHONE)
    kept.goto(url)
    accessible(kept)
    return kept


def put_away(page: Any, request: pytest.FixtureRequest) -> None:
    """After a test: on failure a screenshot goes to test-failures/. Every tab the test opened
    beside its page is closed; the page is kept for the next test, on a still document (a page
    left on the app keeps drawing, and took the CPU from every later test), unless the test
    failed: then it is closed too, and the next test starts on a new one."""
    if page.is_closed():
        return
    failed = getattr(request.node, "failed_call", False)
    if failed:
        from playwright.sync_api import Error as PlaywrightError

        FAILURE_SHOTS.mkdir(exist_ok=True)
        shot = str(FAILURE_SHOTS / f"{request.node.name}.png")
        try:
            page.screenshot(path=shot, full_page=True, timeout=SHOT_TIMEOUT_MS)
        except PlaywrightError:
            # The page does not draw (its main thread busy: a fresh-clone run's Spywhere
            # Save froze its page for minutes). Its renderer ends here, with this failure:
            # left running, it took the next test's new page (the same site, the same
            # renderer process) and held that test until the worker's hang guard.
            from tools.browser import end_busy_renderers

            end_busy_renderers(os.getpid())
    context = page.context
    for left in context.pages:
        if left is not page or failed:
            left.close()
    context.clear_permissions()
    if not failed:
        page.unroute_all()
        wait_on_a_still_document(page)
        KEPT[id(context)] = page


def wait_on_a_still_document(page: Any) -> None:
    """Where a kept page waits for the next test: a document that draws nothing, of the app's
    own site (its icon, answered while the app still serves), so that Chromium keeps the page's
    renderer process for the next test's app, which is served at the same address. After
    about:blank, another site, loading the app took a new process: half as much CPU again
    (1.9 s against 1.2 s a test, measured on 2 cores). A page whose app has stopped already
    waits on about:blank."""
    from playwright.sync_api import Error as PlaywrightError

    address = urlsplit(page.url)
    if address.scheme in ("http", "https"):
        try:
            page.goto(f"{address.scheme}://{address.netloc}/favicon.png")
            return
        except PlaywrightError:  # nothing answers there any more (a guests' door closed)
            pass
    try:
        page.goto("about:blank")
    except PlaywrightError as error:
        # The failed navigation above may still be committing Chromium's error page, which
        # cuts this one off: the page then waits on that page, as still as about:blank.
        if "chrome-error://" not in str(error):
            raise


@pytest.fixture
def page(phone: object, app: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """The app in a phone-sized page, on a phone with nothing stored (as a new device); on
    failure a screenshot goes to test-failures/."""
    opened = open_on_phone(phone, app)
    yield opened
    put_away(opened, request)


@pytest.fixture
def on_phone(
    phone: object, app_port: list[int], request: pytest.FixtureRequest
) -> Iterator[Callable[..., tuple[Any, Any]]]:
    """`on_phone(folder, env=None)`: the app served from `folder` (with `env` added to its
    environment) and a page on it as `page` opens one; returns (app, page). For a test that
    prepares its own data folder: the phone's page loads the web client compiled from its
    cache, where a new device of `browser` compiles it again (3.0 s of CPU against 1.2 s)."""
    served: list[tuple[Any, Any]] = []

    def open_on(
        folder: Path, env: dict[str, str | None] | None = None, args: list[str] | None = None
    ) -> tuple[Any, Any]:
        server = serve(folder, app_port, env, args)
        served.append((server, None))  # stopped after the test even if no page opened
        opened = open_on_phone(phone, server)
        served[-1] = (server, opened)
        return server, opened

    yield open_on
    for server, opened in served:
        if opened is not None:
            put_away(opened, request)
        server.stop()
    for server, _ in served:
        nothing_failed_in(server, request)


@pytest.fixture
def table(
    on_phone: Callable[..., tuple[Any, Any]], tmp_path: Path
) -> Callable[..., tuple[Any, Any]]:
    """`table(game, names, options=None, rounds=None, born=None)`: the app served with that
    game at the table, as New game starts it (`ui.seat_table`), and a page on it as `page`
    opens one; returns (app, page)."""
    from ui import seat_table

    def seat(
        game: str,
        names: list[str],
        options: dict[str, Any] | None = None,
        rounds: list[dict[str, Any]] | None = None,
        born: dict[str, str] | None = None,
    ) -> tuple[Any, Any]:
        seat_table(tmp_path / "data", game, names, options, rounds, born)
        return on_phone(tmp_path / "data")

    return seat


# --- the screen tests: the app's screens in-process (tests/screens.py) ------------------------


class FailuresLogged(logging.Handler):
    """Every failure the app logged while a screen test ran: a drawing, an event or an effect
    that fails is told to the player in a short note and the session goes on (views/safe.py),
    which a test would not notice otherwise; a task that failed unseen, too."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.failures: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.failures.append(self.format(record))


@pytest.fixture
def screen_tables(request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """`screen_tables(folder, sharing=None)`: the app served in-process from `folder`
    (`screens.Table`); every table is closed after the test, which fails if the app logged a
    failure (unless marked `fails_on_purpose`)."""
    from screens import Table

    logged = FailuresLogged()
    logging.getLogger().addHandler(logged)
    opened: list[Any] = []

    def open_table(folder: Path, sharing: Any = None) -> Any:
        table = Table(folder, sharing)
        table.loop.set_exception_handler(
            lambda loop, context: logged.failures.append(
                f"{context.get('message')}: {context.get('exception')!r}"
            )
        )
        table.reopen = open_table
        opened.append(table)
        return table

    try:
        yield open_table
        for table in opened:
            if not table.loop.is_closed():
                table.close()
    finally:
        logging.getLogger().removeHandler(logged)
    if logged.failures and not request.node.get_closest_marker("fails_on_purpose"):
        pytest.fail("the app logged a failure:\n" + "\n".join(logged.failures)[:4000])


@pytest.fixture
def screen(screen_tables: Callable[..., Any], tmp_path: Path) -> Any:
    """The app on a new data folder, in-process, and a phone's tab on it (`screens.Screen`)."""
    return screen_tables(tmp_path / "data").screen()


@pytest.fixture
def seated(screen_tables: Callable[..., Any], tmp_path: Path) -> Callable[..., tuple[Any, Any]]:
    """`seated(game, names, options=None, rounds=None, born=None)`: the app in-process with that
    game at the table, as New game starts it (`ui.seat_table`), and a phone's tab on it;
    returns (table, screen)."""
    from ui import seat_table

    def seat(
        game: str,
        names: list[str],
        options: dict[str, Any] | None = None,
        rounds: list[dict[str, Any]] | None = None,
        born: dict[str, str] | None = None,
    ) -> tuple[Any, Any]:
        seat_table(tmp_path / "data", game, names, options, rounds, born)
        table = screen_tables(tmp_path / "data")
        return table, table.screen()

    return seat
