"""The static site (tools/publish.py): Debrief on a phone alone, Python running in the page.

Served from this machine as a static HTTPS host serves it (tools/site_server.py: each file's
brotli copy), it must start with nothing from any other host, keep what it saved in the
browser (a page closed the moment it shows "saved" has it at the next start), and start again
with the network gone, from what its service worker kept.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from builders import SCENARIOS
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from traffic import Traffic
from ui import EN, enter_deal, exported_everything, shown, start_game

import scoring
from storage.errors import OpenInAnotherTab
from tools import site_server
from tools.browser import PHONE, click_answered, open_app, see, tap
from tools.dev import SITE_VARIABLE, site_ready
from tools.publish import publish

pytestmark = pytest.mark.e2e

FIRST_VISIT_BYTES = 12_000_000  # on the wire, brotli


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[site_server.Site]:
    """The site as `tools/publish.py` builds it: published by the test command for this run
    beside its setup (tools/dev.py, DEBRIEF_TEST_SITE), else here."""
    given = os.environ.get(SITE_VARIABLE)
    if given and published(Path(given)):
        dist = Path(given)
    else:
        dist = tmp_path_factory.mktemp("site") / "dist"
        publish(dist)
    server = site_server.start(dist)
    yield server
    server.shutdown()


def published(site: Path) -> bool:
    """Whether the test command's publishing of `site` ended well: it says so in a file when
    it ends (tools/dev.py, `site_ready`), which is looked for until then."""
    ready = site_ready(site)
    deadline = time.monotonic() + PUBLISHING_S
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.2)  # another process's state, which nothing here can wait on
    return ready.exists() and ready.read_text() == "0"


PUBLISHING_S = 300  # far above the 20 s it takes: a publishing that hangs fails the test


def address(server: site_server.Site) -> str:
    return f"http://localhost:{server.server_address[1]}/"


def totals_shown(page: Page, record: dict[str, object]) -> None:
    for name, total in scoring.standings(record)["totals"].items():
        shown(page, f"{name}: total {EN.number(total)}")


def closed_at_once(page: Page) -> None:
    """The tab closed the moment its screen says saved: no unload handlers, nothing waited."""
    page.close(run_before_unload=False)


@pytest.mark.long
def test_the_site_starts_offline_with_what_it_saved_even_closed_at_once(
    browser: Browser, site: site_server.Site, tmp_path: Path
) -> None:
    record = json.loads((SCENARIOS / "black-spy-basic.json").read_text())
    names = [player["name"] for player in record["players"]]
    deals = record["rounds"]
    context = browser.new_context(viewport=PHONE)
    traffic = Traffic().watch(context)
    url = address(site)
    page = open_app(context, url)
    first_visit = site.sent
    start_game(page, "Black Spy", names)
    tap(page, "Start Black Spy")
    enter_deal(page, 1, names, deals[0])
    assert first_visit <= FIRST_VISIT_BYTES, first_visit
    assert traffic.elsewhere(urlsplit(url).netloc) == []  # Rive's CDN: stopped by the policy
    assert traffic.refused == [], traffic.refused
    # The roster's file made unreadable where the browser keeps it (the game is in another
    # file, which the save below rewrites; this one it leaves as it is).
    damaged(page, "debrief.json")
    # And the entry of the list of finished games (which it does not write either) left with
    # no bytes at all: the site never started (IDBFS's syncfs threw reading it back).
    emptied(page, "index.json")

    context.set_offline(True)
    # A second tab, started with the network gone (from what the service worker kept), waits
    # for the first (two tabs writing one store would undo each other) ...
    second = offline_start(context, url, site)
    shown(second, OpenInAnotherTab().message)
    page.bring_to_front()  # a tab behind another gets no frames to draw
    enter_deal(page, 2, names, deals[1])
    closed_at_once(page)
    # ... and then opens with the damaged file kept aside, as on a disk, and said so (that
    # file also held where the first tab was left: it opens at home), and with the game as
    # the first tab saved it just before it was closed.
    see(second, "debrief.json could not be read")
    see(second, "Debrief started without it")
    see(second, "index.json could not be read")
    game = second.get_by_role("button", name=re.compile(r"^Black Spy · ")).first
    click_answered(second, game, "the game in progress")
    totals_shown(second, {**record, "rounds": deals[:2]})
    backups_leave_and_come_in_through_the_browser(second, tmp_path)


# The data folder in the browser (platformdirs under Pyodide), and so IDBFS's database name.
DATA_FOLDER = "/home/pyodide/.local/share/Debrief"
DAMAGE = """async ([folder, name]) => {
    const db = await new Promise((done, failed) => {
        const asked = indexedDB.open(folder);
        asked.onsuccess = () => done(asked.result);
        asked.onerror = () => failed(asked.error);
    });
    const files = db.transaction("FILE_DATA", "readwrite").objectStore("FILE_DATA");
    const key = `${folder}/${name}`;
    const entry = await new Promise((done) => {
        files.get(key).onsuccess = (event) => done(event.target.result);
    });
    entry.contents = new TextEncoder().encode('{"games": {"1": {"meta": ');
    await new Promise((done) => { files.put(entry, key).onsuccess = done; });
    db.close();
}"""


EMPTIED = DAMAGE.replace(
    'entry.contents = new TextEncoder().encode(\'{"games": {"1": {"meta": \');',
    "delete entry.contents;",
)


def emptied(page: Page, name: str) -> None:
    """The entry of the data file `name` left with no contents where the browser keeps it."""
    assert EMPTIED != DAMAGE
    page.evaluate(EMPTIED, [DATA_FOLDER, name])


def damaged(page: Page, name: str) -> None:
    """The data file `name` made unreadable where the browser keeps it (IndexedDB), as a
    broken write or a bad sector would leave a file on a disk."""
    page.evaluate(DAMAGE, [DATA_FOLDER, name])


def backups_leave_and_come_in_through_the_browser(page: Page, folder: Path) -> None:
    """Export everything is a download; Import a file takes a file picked on the phone."""
    tap(page, "Back")
    tap(page, "Settings")
    _, exported = exported_everything(page, folder)
    assert [len(game["rounds"]) for game in exported["games"]] == [2]
    with page.expect_file_chooser(timeout=30_000) as chooser:
        tap(page, "Import a file")
    chooser.value.set_files(str(SCENARIOS / "black-spy-basic.json"))  # a game of its own id
    tap(page, "Import")
    see(page, "Imported 1 game")


def offline_start(context: BrowserContext, url: str, site: site_server.Site) -> Page:
    """The site opened again with the network gone: nothing reaches the server but the
    browser's check for a new service worker (which Playwright's offline lets through; with
    no network it fails, and the worker kept runs)."""
    before = len(site.asked)
    said: list[str] = []
    try:
        page = open_app(context, url, before_load=lambda page: told(page, said))
    except PlaywrightTimeout as waited:
        raise AssertionError("the site did not start; it said:\n" + "\n".join(said)) from waited
    assert set(site.asked[before:]) <= {"/sw.js"}, site.asked[before:]
    return page


def told(page: Page, said: list[str]) -> None:
    """What the page and its workers write to the console, into `said` (a failure's story)."""
    page.on("console", lambda message: said.append(message.text[:300]))
    page.on("worker", lambda worker: worker.on("console", lambda m: said.append(m.text[:300])))
