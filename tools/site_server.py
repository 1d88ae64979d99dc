"""A static host for the published site (tools/publish.py) on this machine, as a static HTTPS
host would serve it: each file's brotli or gzip copy where the browser accepts it.

    .venv/bin/python tools/site_server.py [DIST] [--port 8560]

A phone installs the site and its service worker only over HTTPS or from localhost; this is
for trying it on this machine, and for the tests.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The app's own server's choice of copy, and its types for .mjs and .wasm.
from storage.compressed import ENCODINGS, SUFFIXES  # noqa: E402
from web.precompressed import accepted_encodings  # noqa: E402


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Files from the site's folder, compressed where a copy is there and accepted."""

    def send_head(self):  # type: ignore[no-untyped-def]
        with self.server.counting:  # type: ignore[attr-defined]
            self.server.asked.append(self.path)  # type: ignore[attr-defined]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", "").encode("latin-1"))
        for encoding in ENCODINGS:
            copy = path.with_name(path.name + SUFFIXES[encoding])
            if encoding in accepted and path.is_file() and copy.is_file():
                return self.send_file(copy, path, encoding)
        return super().send_head()

    def send_file(self, copy: Path, original: Path, encoding: str):  # type: ignore[no-untyped-def]
        handle = copy.open("rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(original)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(copy.stat().st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return handle

    def copyfile(self, source, outputfile):  # type: ignore[no-untyped-def]
        """The file's bytes, counted (`Site.sent`: what went on the wire, bar headers)."""
        data = source.read()
        with self.server.counting:  # type: ignore[attr-defined]
            self.server.sent += len(data)  # type: ignore[attr-defined]
        outputfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


class Site(http.server.ThreadingHTTPServer):
    """The server, with the bytes of the files it sent so far (`sent`) and the paths it was
    asked for (`asked`)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.sent = 0
        self.asked: list[str] = []
        self.counting = threading.Lock()


def start(dist: Path, port: int = 0) -> Site:
    """The site served on 127.0.0.1 (port 0: any free one) in a thread of its own."""
    handler = functools.partial(SiteHandler, directory=str(dist))
    server = Site(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, name="site", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", default=str(ROOT / "dist"))
    parser.add_argument("--port", type=int, default=8560)
    args = parser.parse_args(argv)
    server = start(Path(args.dist), args.port)
    print(f"Debrief's site: http://localhost:{server.server_address[1]}/", flush=True)
    threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
