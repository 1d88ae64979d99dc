"""The app in its own window, sharing its table: run by test_e2e_window_share.py.

Flet's desktop client cannot run here (it is downloaded at first use), so this runs main.py's
window path for real — `main.main` with a data folder and a port — with only the window itself
replaced (and taken as downloaded already): where Flet would open it, the host does what the
window's game screen does. It starts
the scenario's game and shares it, then reads orders from stdin: "deal" saves the scenario's
next deal (as the window's Save does: stored, then announced to every other session), "stop"
stops sharing.

    python tests/window_host.py DATA_DIR PORT SCENARIO_JSON
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import flet as ft

import main
import web.serve
from storage import Store
from web.sharing import Sharing

shared: list[Sharing | None] = []
real_window_sharing = web.serve.window_sharing
real_run = ft.run


def capturing_window_sharing(*args: Any, **kwargs: Any) -> Sharing | None:
    sharing = real_window_sharing(*args, **kwargs)
    shared.append(sharing)
    return sharing


async def host(scenario: dict[str, Any]) -> None:
    """What the host does in the window: start the game, share it, save deals, stop."""
    sharing = shared[0]
    assert sharing is not None, "the window offered no sharing"
    store = Store.open(DATA_DIR)
    game = store.create_game(scenario["game"], scenario["players"], scenario["options"])
    game_id = game["meta"]["id"]
    await sharing.start()
    sharing.show(game_id)
    saved = 0
    loop = asyncio.get_running_loop()
    while (await loop.run_in_executor(None, sys.stdin.readline)).strip() == "deal":
        store.append_round(game_id, scenario["rounds"][saved % len(scenario["rounds"])])
        store.announce(None)  # every session hears it (the window would skip its own)
        saved += 1
        print(f"Host saved deal {saved}", flush=True)
    await sharing.stop()
    print("Host stopped sharing", flush=True)


def window_or_web_app(app_main: Any, **options: Any) -> Any:
    if options.get("export_asgi_app"):
        return real_run(app_main, **options)  # the guests' web app: built for real
    # In place of the window (which Flet runs in asyncio.run too):
    asyncio.run(host(json.loads(Path(SCENARIO).read_text())))
    return None


if __name__ == "__main__":
    DATA_DIR, PORT, SCENARIO = sys.argv[1:4]
    os.environ.setdefault("DISPLAY", ":0")  # main.py would serve a browser without a screen
    web.serve.window_sharing = capturing_window_sharing
    ft.run = window_or_web_app
    main.window_client = lambda: Path("/the/window/client")  # as if downloaded once before
    sys.exit(main.main(["--data-dir", DATA_DIR, "--port", PORT]))
