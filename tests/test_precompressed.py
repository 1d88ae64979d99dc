"""The web client served compressed and with validators (web/precompressed.py), from copies made
once (storage/compressed.py): what keeps a phone's first join light and its second one cached."""

from __future__ import annotations

import gzip
import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest
from builders import ROOT

from storage.compressed import COMPLETE, CompressedCopies
from storage.files import TEMP_MARK
from tools.browser import AppServer
from web.precompressed import accepted_encodings, client_files, worth_compressing

SECRET = "precompressed-test-secret-2b81"
ASSETS = ROOT / "assets"
CLIENT = Path(client_files(ASSETS)["main.dart.wasm"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, str]]:
    assert CompressedCopies(client_files(ASSETS)).prepare()  # as tools/dev.py does at setup
    started = AppServer(tmp_path_factory.mktemp("compressed") / "data", secret=SECRET).start()
    cookie = f"debrief-key-{started.port}={SECRET}"
    yield started, cookie
    started.stop()


def get(
    served: tuple[AppServer, str], path: str, method: str = "GET", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    server, cookie = served
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        named = {name.replace("_", "-"): value for name, value in headers.items()}
        connection.request(method, path, headers={"Cookie": cookie, **named})
        response = connection.getresponse()
        found = {name.lower(): value for name, value in response.getheaders()}
        return response.status, found, response.read()
    finally:
        connection.close()


def test_a_phone_on_the_network_gets_gzip_and_a_validator(server: tuple[AppServer, str]) -> None:
    """Over plain HTTP to a network address a browser offers gzip only: the copy it gets
    unpacks to exactly Flet's file; a second visit with the ETag gets "not modified"."""
    status, headers, body = get(server, "/main.dart.wasm", Accept_Encoding="gzip, deflate")
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["content-type"] == "application/wasm"
    assert gzip.decompress(body) == CLIENT.read_bytes()
    assert len(body) < CLIENT.stat().st_size * 0.35
    assert headers["cache-control"] == "no-cache" and headers["vary"] == "Accept-Encoding"
    again = get(server, "/main.dart.wasm", Accept_Encoding="gzip", If_None_Match=headers["etag"])
    assert again[0] == 304 and again[1]["etag"] == headers["etag"]
    listed = get(
        server, "/main.dart.wasm", Accept_Encoding="gzip", If_None_Match=f'"x",W/{headers["etag"]}'
    )
    assert listed[0] == 304  # a weak tag in a list matches too


def test_brotli_where_the_browser_takes_it_and_the_file_itself_where_it_takes_neither(
    server: tuple[AppServer, str],
) -> None:
    status, headers, body = get(server, "/main.dart.wasm", Accept_Encoding="gzip, br, zstd")
    assert status == 200 and headers["content-encoding"] == "br"
    assert brotli.decompress(body) == CLIENT.read_bytes()
    refused = get(server, "/main.dart.wasm", Accept_Encoding="br;q=0, gzip;q=0")
    assert "content-encoding" not in refused[1] and refused[2] == CLIENT.read_bytes()
    assert refused[1]["cache-control"] == "no-cache"  # Flet's own answer gets it too
    head = get(server, "/main.dart.wasm", method="HEAD", Accept_Encoding="gzip")
    assert head[0] == 200 and head[1]["content-encoding"] == "gzip"
    assert int(head[1]["content-length"]) == len(
        get(server, "/main.dart.wasm", Accept_Encoding="gzip")[2]
    )


def test_the_apps_own_files_take_the_place_of_flets(server: tuple[AppServer, str]) -> None:
    """The icon font cut down to the app's icons (tools/icon_font.py) is what is served, and
    compressed; a file nobody may fetch is not served, compressed or not, to a stranger."""
    font = ASSETS / "assets" / "fonts" / "MaterialIcons-Regular.otf"
    status, headers, body = get(
        server, "/assets/fonts/MaterialIcons-Regular.otf", Accept_Encoding="gzip"
    )
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == font.read_bytes()
    server_, _ = server
    stranger = http.client.HTTPConnection("127.0.0.1", server_.port, timeout=10)
    stranger.request("GET", "/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
    refused = stranger.getresponse()
    assert refused.status == 403 and b"wasm" not in refused.read()
    stranger.close()


def test_the_clients_code_is_kept_under_its_version_and_the_page_says_so(
    server: tuple[AppServer, str],
) -> None:
    """A browser keeps the code it compiled only while it does not ask again: the page points
    Flet's client at a path named by the files' version, whose answers are kept for a year;
    another version's path is the same file, but not kept."""
    version = CompressedCopies(client_files(ASSETS)).folder.name
    page = get(server, "/")[2].decode()
    assert f'flet.entrypointBaseUrl="/_v/{version}/"' in page
    assert f'flet.canvasKitBaseUrl="/_v/{version}/canvaskit/"' in page
    status, headers, body = get(server, f"/_v/{version}/main.dart.wasm", Accept_Encoding="gzip")
    assert status == 200 and gzip.decompress(body) == CLIENT.read_bytes()
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    skwasm = get(server, f"/_v/{version}/canvaskit/skwasm.js")
    assert skwasm[0] == 200 and "immutable" in skwasm[1]["cache-control"]
    old = get(server, "/_v/0123456789abcdef0123/main.dart.wasm", Accept_Encoding="gzip")
    assert old[0] == 200 and old[1]["cache-control"] == "no-cache"
    missing = get(server, f"/_v/{version}/no-such-file.wasm")
    assert missing[0] == 404 and missing[1]["cache-control"] == "no-cache"  # never kept


def test_a_versioned_path_leads_to_no_file_outside_the_client(
    server: tuple[AppServer, str],
) -> None:
    """From the attacker's side, with the cookie: a versioned path that climbs out of the
    client's folder (plain, encoded, or as the version itself) finds nothing."""
    for path in (
        "/_v/x/../../../../../../etc/passwd",
        "/_v/x/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/_v/../../pyproject.toml",
        "/_v/x/..%2f..%2fpyproject.toml",
    ):
        status, _, body = get(server, path, Accept_Encoding="gzip")
        assert b"root:" not in body and b"[project]" not in body, (path, status)


def test_what_is_compressed() -> None:
    assert worth_compressing("main.dart.wasm") and worth_compressing("assets/NOTICES")
    for path in (
        "index.html",
        "assets/FontManifest.json",
        "pyodide/pyodide.asm.wasm",
        "canvaskit/skwasm.js.symbols",
        "flutter.js.map",
        "icons/loading-animation.png",
    ):
        assert not worth_compressing(path), path
    assert accepted_encodings(b"gzip, deflate, br;q=0.5, zstd;q=0") == {"gzip", "deflate", "br"}


def test_copies_are_made_once_whole_and_anew_when_a_file_changes(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    (files / "big.js").write_text("let a = 1;\n" * 2000)
    (files / "tiny.js").write_text("let a = 1;\n")
    (files / "random.wasm").write_bytes(os.urandom(4000))  # does not shrink: sent as it is
    served = {p.name: p for p in files.iterdir()}
    copies = CompressedCopies(served, tmp_path / "cache")
    assert copies.copy("big.js", "gzip") is None  # not before they are made
    assert copies.prepare() and (copies.folder / COMPLETE).exists()
    made = copies.copy("big.js", "gzip")
    assert (
        made is not None and gzip.decompress(made.read_bytes()) == (files / "big.js").read_bytes()
    )
    assert copies.copy("big.js", "br") is not None
    assert copies.copy("tiny.js", "gzip") is None and copies.copy("random.wasm", "gzip") is None
    assert not list(copies.folder.rglob(f"*{TEMP_MARK}*"))  # no half-written file left
    again = CompressedCopies(served, tmp_path / "cache")
    assert again.folder == copies.folder and again.complete  # made once
    (files / "big.js").write_text("let b = 2;\n" * 3000)
    changed = CompressedCopies(served, tmp_path / "cache")
    assert changed.folder != copies.folder and not changed.complete
    assert changed.prepare()
    copy = changed.copy("big.js", "gzip")
    assert copy is not None and gzip.decompress(copy.read_bytes()).startswith(b"let b")
