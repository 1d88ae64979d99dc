"""A phone build carries only the base dependencies: the app's main starts and draws its home
screen with Flet's web server, its desktop runtime and uvicorn not importable (and pip not
runnable: Flet would otherwise install what is missing at run time).

The test plays the phone's Flutter host: as in a `flet build` app, FLET_PLATFORM is set and the
app's Python serves Flet's socket protocol on a local port; the test registers as the client,
answers the app's calls to the device (its shared preferences) and waits for the first screen.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
from builders import ROOT

from tools.browser import free_port

REGISTER_CLIENT, INVOKE_METHOD = 1, 5  # flet.messaging.protocol.MessageAction
PHONE = r"""
import importlib.abc, runpy, subprocess, sys

class NotOnAPhone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("flet_web", "flet_desktop", "uvicorn"):
            raise ModuleNotFoundError(f"No module named {name!r}: a phone build has none")
        return None

def no_process(*args, **kwargs):
    raise RuntimeError(f"a phone runs no other program: {args!r}")

sys.meta_path.insert(0, NotOnAPhone())
subprocess.run = subprocess.call = subprocess.check_call = subprocess.Popen = no_process
sys.argv = ["main.py"]
runpy.run_path("main.py", run_name="__main__")
"""
PAGE = {
    "route": "/",
    "platform": "android",
    "width": 400.0,
    "height": 800.0,
    "web": False,
    "pwa": False,
    "debug": False,
    "wasm": False,
    "test": False,
    "multi_view": False,
    "platform_brightness": "light",
    "media": {},
    "window": {},
}


def send(sock: socket.socket, action: int, body: dict[str, Any]) -> None:
    packet = b"\x00" + msgpack.packb([action, body])
    sock.sendall(len(packet).to_bytes(4, "little") + packet)


def messages(sock: socket.socket) -> Iterator[bytes]:
    """Flet's frames: [length u32 LE][0x00][msgpack]; data-channel frames are skipped."""
    buffer = b""
    while True:
        while len(buffer) >= 4 and len(buffer) >= 4 + int.from_bytes(buffer[:4], "little"):
            length = int.from_bytes(buffer[:4], "little")
            packet, buffer = buffer[4 : 4 + length], buffer[4 + length :]
            if packet[:1] == b"\x00":
                yield packet[1:]
        chunk = sock.recv(65536)
        if not chunk:
            return
        buffer += chunk


def connect(port: int, app: subprocess.Popen[bytes]) -> socket.socket:
    deadline = time.monotonic() + 60
    while True:
        try:
            return socket.create_connection(("localhost", port), timeout=2)
        except OSError:
            assert app.poll() is None, app.stdout.read().decode() if app.stdout else ""
            assert time.monotonic() < deadline, "the app never listened"
            time.sleep(0.2)


def test_the_app_starts_on_a_phone_without_the_web_server_or_the_desktop_runtime(
    tmp_path: Path,
) -> None:
    port = free_port()
    env = {
        **os.environ,
        "FLET_PLATFORM": "android",
        "FLET_SERVER_PORT": str(port),
        "DEBRIEF_DATA_DIR": str(tmp_path / "data"),
    }
    app = subprocess.Popen(
        [sys.executable, "-c", PHONE],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        sock = connect(port, app)
        sock.settimeout(30)
        send(sock, REGISTER_CLIENT, {"session_id": "", "page_name": "", "page": PAGE})
        drawn = False
        for raw in messages(sock):
            action, body = msgpack.unpackb(raw, ext_hook=lambda _code, data: data)
            if action == INVOKE_METHOD:  # the device's shared preferences: nothing kept yet
                reply = {"control_id": body["control_id"], "call_id": body["call_id"]}
                send(sock, INVOKE_METHOD, {**reply, "result": None, "error": None})
            if b"New game" in raw:
                drawn = True
                break
        sock.close()
        assert drawn, "the home screen was never drawn"
        assert app.poll() is None  # still running: nothing failed to import
    finally:
        app.kill()
        output = app.communicate()[0].decode()
    assert "Traceback" not in output, output


def png_header(path: Path) -> tuple[int, int, int]:
    """(width, height, colour type) from a PNG's IHDR chunk (type 2: RGB, 6: RGB with alpha)."""
    data = path.read_bytes()[:33]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return (
        int.from_bytes(data[16:20], "big"),
        int.from_bytes(data[20:24], "big"),
        data[25],
    )


def test_the_phone_build_has_its_icons_splash_colours_and_no_extra_permission() -> None:
    import tomllib

    from views.theme import DARK, LIGHT

    assert png_header(ROOT / "assets" / "icon.png") == (1024, 1024, 2)  # opaque, as iOS wants
    assert png_header(ROOT / "assets" / "icon_android.png") == (1024, 1024, 6)  # on transparency
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    flet = config["tool"]["flet"]
    assert flet["org"] and flet["product"] == "Debrief" and flet["app"]["module"] == "main"
    assert config["project"]["version"] and config["project"]["description"]
    splash = flet["splash"]
    assert (splash["color"], splash["dark_color"]) == (LIGHT["surface"], DARK["surface"])
    assert flet["android"]["adaptive_icon_background"] == LIGHT["primary"]
    assert "permission" not in flet["android"] and "permissions" not in flet["android"]
    base = " ".join(config["project"]["dependencies"])
    assert "flet-web" not in base and "flet-desktop" not in base  # a phone carries neither
