"""Flet's web client served compressed and cached: what a phone downloads to join a table.

Flet serves its client (17 MB of WebAssembly, JavaScript and fonts) as it is, and with no
cache headers: a guest's first join took 16 MB over the table's Wi-Fi. In front of Flet's
static files (inside the guard), `Precompressed` answers a request for one of the client's
files with its compressed copy (storage/compressed.py: brotli where the browser accepts it,
gzip otherwise), made once, never per request.

Cached, the heavy files must not even be asked about: a browser that revalidates a file drops
the code it compiled from it (Chromium keeps compiled code only with the very response it was
compiled from), and compiling the client again costs a phone seconds. So the page tells Flet's
client to load its code (main.dart.wasm, the renderer) under a path named by the version of the
client's files (`VERSIONED`/<digest>/…), which is kept for a year without asking; a new version
of Flet, or of the app's files, is a new path. Every other file carries a validator (an ETag)
and ``Cache-Control: no-cache``: a second join asks whether it changed and hears "304 Not
Modified", a few hundred bytes each.

The files Flet writes per app (index.html, manifest.json, assets/FontManifest.json) and what
is not a file (the websocket, the app's routes) pass through to Flet.
"""

from __future__ import annotations

import mimetypes
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from storage.compressed import ENCODINGS, CompressedCopies

from .guard import ASGIApp, Message, Receive, Scope, Send, weighted_values

# Written by Flet for each app at its first request: served by Flet, as it is.
PATCHED = {"index.html", "manifest.json", "assets/FontManifest.json"}
# Never fetched by the client Debrief serves: Pyodide (an app running in the browser), debug
# symbols and source maps, renderers it does not choose.
NEVER_FETCHED = ("pyodide/", "canvaskit/experimental_webparagraph/", "canvaskit/wimp.")
# Not .html: pages are Flet's, and get scripts put into them (web/connection_note.py).
COMPRESSIBLE = {".js", ".mjs", ".wasm", ".json", ".otf", ".ttf", ".css", ".svg", ""}
KEPT_ANSWERS = (200, 304)  # what a versioned path may keep (never an error)
REVALIDATE = (b"cache-control", b"no-cache")  # keep, but ask before each use
KEEP = (b"cache-control", b"public, max-age=31536000, immutable")  # a versioned path
VERSIONED = "_v"
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")


def client_files(assets_dir: str | Path) -> dict[str, Path]:
    """What the served client may fetch that is worth compressing, by its path on the server:
    Flet's web client, and the app's assets folder, which Flet serves before it (so a file of
    the app's takes the place of Flet's file of the same path)."""
    import flet_web  # type: ignore[import-untyped]

    files: dict[str, Path] = {}
    for root in (Path(flet_web.__file__).parent / "web", Path(assets_dir)):
        for source in sorted(root.rglob("*")):
            path = source.relative_to(root).as_posix()
            if source.is_file() and worth_compressing(path):
                files[path] = source
    return files


def worth_compressing(path: str) -> bool:
    if path in PATCHED or path.startswith(NEVER_FETCHED):
        return False
    if path.endswith((".symbols", ".map")) or "/." in f"/{path}":
        return False
    return Path(path).suffix.lower() in COMPRESSIBLE


def prepare_in_background(copies: CompressedCopies) -> None:
    """Make the compressed copies in a thread of their own (once per machine: about ten
    seconds of CPU); until they are there, the files are served as they are."""
    if not copies.complete:
        threading.Thread(target=copies.prepare, name="compress-web-client", daemon=True).start()


class Precompressed:
    """ASGI middleware: the client's files from their compressed copies, every static answer
    with a validator to revalidate."""

    def __init__(self, app: ASGIApp, copies: CompressedCopies) -> None:
        self.app = app
        self.copies = copies
        self.version = copies.folder.name  # named by the files' paths, sizes and times

    def page_config(self) -> bytes:
        """A script for the end of the page's head: Flet's client loads its code (its entry
        point and its renderer) under this version's path."""
        base = f"/{VERSIONED}/{self.version}/"
        return (
            f'<script>flet.entrypointBaseUrl="{base}";'
            f'flet.canvasKitBaseUrl="{base}canvaskit/";</script>'
        ).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", "/")).lstrip("/")
        keep = False
        if path.startswith(f"{VERSIONED}/"):  # a file of a version: the file itself
            version, _, path = path.removeprefix(f"{VERSIONED}/").partition("/")
            keep = version == self.version  # an older page's version: not kept as this one
            scope = {**scope, "path": f"/{path}", "raw_path": quote(f"/{path}").encode()}
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        compressed = path in self.copies.files
        if compressed:
            accepted = accepted_encodings(headers.get(b"accept-encoding", b""))
            for encoding in ENCODINGS:
                copy = self.copies.copy(path, encoding) if encoding in accepted else None
                if copy is not None:
                    await self._send_copy(scope, receive, send, path, copy, encoding, keep)
                    return
        await self.app(scope, receive, _revalidated(send, vary=compressed, keep=keep))

    async def _send_copy(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        path: str,
        copy: Path,
        encoding: str,
        keep: bool,
    ) -> None:
        from starlette.responses import FileResponse, Response

        tag = f'"{self.version}-{encoding}"'
        common = {
            "etag": tag,
            "cache-control": (KEEP if keep else REVALIDATE)[1].decode(),
            "vary": "Accept-Encoding",
        }
        request = {name.lower(): value for name, value in scope.get("headers", [])}
        asked = request.get(b"if-none-match", b"").split(b",")
        if any(tag.encode() in (part.strip(), part.strip().removeprefix(b"W/")) for part in asked):
            await Response(status_code=304, headers=common)(scope, receive, send)
            return
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        response: Any = FileResponse(
            copy, media_type=kind, headers={**common, "content-encoding": encoding}
        )
        await response(scope, receive, send)


def accepted_encodings(header: bytes) -> set[str]:
    """The content codings an Accept-Encoding header accepts ("gzip, br;q=0" -> {"gzip"})."""
    return {coding for coding, weight in weighted_values(header) if weight > 0}


def _revalidated(send: Send, vary: bool, keep: bool = False) -> Send:
    """`send` with a static answer told to be revalidated before each use (Flet's own files
    come with an ETag and Last-Modified, but no Cache-Control: browsers then guess how long
    to keep them), or kept (`keep`: a versioned path), and, for a file also sent compressed,
    that the answer varies with Accept-Encoding."""

    async def revalidated(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {name.lower() for name, _ in headers}
            if b"cache-control" not in names:
                kept = keep and message.get("status") in KEPT_ANSWERS
                headers.append(KEEP if kept else REVALIDATE)
            if vary:
                headers.append((b"vary", b"Accept-Encoding"))
            message = {**message, "headers": headers}
        await send(message)

    return revalidated


def main() -> None:
    """`python -m web.precompressed [ASSETS]`: make the copies now (tools/dev.py does, when it
    sets up), and say what they weigh."""
    import sys
    import time

    assets = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent.parent / "assets")
    copies = CompressedCopies(client_files(assets))
    if copies.complete:
        return
    began = time.monotonic()
    print("Compressing Flet's web client for phones (once) ...", flush=True)
    if not copies.prepare():
        print("Could not compress it: it is served as it is.", flush=True)
        return
    size = sum(source.stat().st_size for source in copies.files.values())
    print(f"Compressed {size / 1e6:.1f} MB in {time.monotonic() - began:.0f} s.", flush=True)


if __name__ == "__main__":
    main()
