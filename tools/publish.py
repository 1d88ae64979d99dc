"""Debrief as a static site: the app runs in the phone's browser, Python and all (Pyodide), keeps
its data there, and starts without a network once visited.

    .venv/bin/python tools/publish.py [DIST] [--base /debrief/]   # default DIST: dist/

Built with no internet from what the environment already has: Flet's web client and the
Pyodide it ships (flet-web), the app's own folders, and the pure-Python packages it runs on,
copied from this environment into the app's archive (`__pypackages__`, which Flet's worker puts
on sys.path): nothing for micropip to fetch at each start. msgpack is taken without its C
speed-up (its pure fallback is part of the same package); Babel keeps English and German only.
The archive's modules and Python's standard library are compiled to bytecode by Pyodide's own
Python in Node.js where there is one (web/site/compile.mjs): a start then compiles nothing,
not even the methods of the app's dataclasses (their code is kept too: web/site/site_main.py,
the site's entry, which runs main.py).

`flet publish` does much the same but fetches a Python build manifest from the internet, has
micropip install every package from the package index at every start, and leaves a
`pyodideUrl` that `import()` does not take; this script uses flet-web's own patching instead.

Beside each file it writes its brotli and gzip copies (for a host that serves them: nginx's
`brotli_static`/`gzip_static`, or tools/site_server.py here), and `sw.js`, a service worker
that keeps what every start loads when it is installed, and the rest as it is first fetched,
so that the next start needs no network (web/site/: the worker, and the page's loader).
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import importlib.metadata as metadata
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from storage.compressed import (  # noqa: E402
    SMALLEST,
    SUFFIXES,
    WORTH_IT,
    CompressedCopies,
    compressors,
)
from web.guard import CONTENT_SECURITY_POLICY  # noqa: E402
from web.precompressed import client_files  # noqa: E402

SITE_FILES = ROOT / "web" / "site"  # the service worker and the page's loader
SITE_MAIN = "site_main.py"  # the site's Python entry: quicker dataclasses, then main.py
APP_PARTS = ("main.py", "scoring", "storage", "views", "web")
APP_ASSETS = ("locales",)  # what the Python side reads from assets/ (the rest is the page's)
# The packages the app imports in the browser, and theirs (markers read as Pyodide's).
APP_PACKAGES = ["debrief"]
BROWSER = {"sys_platform": "emscripten", "platform_system": "Emscripten", "extra": ""}
BABEL_LOCALES = ("root", "en", "de")
LEFT_OUT_OF_PACKAGES = (".pyi", "/RECORD", "/INSTALLER", "/WHEEL", "py.typed")
APP_SUFFIXES = {".py", ".js", ".po", ".json"}  # the code, its page scripts, the translations
APP_ARCHIVE = "app.zip"
# Parts of Python's standard library that nothing in the browser imports (the debugger and
# interactive console, test tools, processes, mail): a sixth of it.
UNUSED_STDLIB = (
    "_pyrepl/",
    "pdb.py",
    "pydoc.py",
    "pydoc_data/",
    "doctest.py",
    "unittest/",
    "multiprocessing/",
    "mailbox.py",
    "xmlrpc/",
    "wsgiref/",
    "turtle.py",
    "idlelib/",
    "tkinter/",
    "lib2to3/",
    "ensurepip/",
    "venv/",
    "curses/",
    "dbm/",
    "sqlite3/",
)
# Never fetched by a page that runs Python in the browser with CanvasKit (Flet's choice for
# Pyodide): the other renderers, debug symbols, fonts the app never shows, Flet's own hosted
# client's service worker.
LEFT_OUT = (
    "main.dart.wasm",
    "main.dart.mjs",
    "flutter_service_worker.js",
    "canvaskit/skwasm",
    "canvaskit/wimp",
    "canvaskit/experimental_webparagraph/",
    "assets/packages/flutter_math_fork/",
    "assets/packages/cupertino_icons/",
    "assets/packages/media_kit/",
    "pyodide/python.",  # Pyodide's command line (python.bat, python.exe)
    "pyodide/python_cli_entry.mjs",
    "pyodide/pyodide.js",  # the classic script: Flet's worker imports pyodide.mjs
    "pyodide/micropip-",
    "pyodide/packaging-",
)
LEFT_OUT_SUFFIXES = (".symbols", ".map", ".d.ts", "/.gitkeep", "/README.md")
LEFT_OUT_NAMES = {"pyodide/python"}
STARTING_FILES = [
    "start.js",
    "manifest.json",
    "favicon.png",
    "python.js",
    "flutter_bootstrap.js",
    "main.dart.js",
    "python-worker.js",
    "assets/FontManifest.json",
    "assets/fonts/MaterialIcons-Regular.otf",
    "assets/fonts/roboto.woff2",
    APP_ARCHIVE,
]
FLETS_SCRIPTS = (
    '<script src="python.js"></script>',
    '<script src="flutter_bootstrap.js" async></script>',
)
FLUTTERS_WORKER = re.compile(r"serviceWorkerSettings:\s*\{[^}]*\},\s*")
COMPRESSED = {".js", ".mjs", ".wasm", ".json", ".otf", ".ttf", ".html", ".css", ".svg", ".zip"}
COMPRESSED_NAMES = {"NOTICES"}


def flet_web_dir() -> Path:
    import flet_web  # type: ignore[import-untyped]

    return Path(flet_web.__file__).parent / "web"


def left_out(path: str) -> bool:
    if path in LEFT_OUT_NAMES or path.startswith(LEFT_OUT):
        return True
    return f"/{path}".endswith(LEFT_OUT_SUFFIXES)


def copy_client(dist: Path) -> None:
    """Flet's web client with Pyodide, then the app's assets over it (as Flet serves them)."""
    for root in (flet_web_dir(), ROOT / "assets"):
        for source in sorted(root.rglob("*")):
            path = source.relative_to(root).as_posix()
            if source.is_file() and not left_out(path) and not path.startswith("locales/"):
                target = dist / path
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)


def requirement_closure(names: list[str]) -> list[metadata.Distribution]:
    """The installed distributions `names` need in the browser, with theirs."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip's own copy
        from pip._vendor.packaging.requirements import Requirement

    found: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        distribution = metadata.distribution(name)
        key = distribution.metadata["Name"].lower()
        if key in found:
            continue
        found[key] = distribution
        for line in distribution.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(BROWSER):
                todo.append(requirement.name)
    found.pop("debrief", None)  # the app itself goes in as its folders
    return sorted(found.values(), key=lambda d: d.metadata["Name"].lower())


def package_files(distribution: metadata.Distribution) -> Iterator[tuple[str, Path]]:
    """(path in __pypackages__, file) for a distribution's Python files and data, without
    compiled extensions, bytecode or what Debrief never reads."""
    for file in distribution.files or []:
        path = file.as_posix()
        if path.startswith("..") or "__pycache__" in path or path.endswith((".so", ".pyd")):
            continue
        if not wanted_data(path):
            continue
        yield path, Path(str(distribution.locate_file(file)))


def wanted_data(path: str) -> bool:
    """Whether the browser needs a package's file: not the type stubs, install records or
    software lists, not Babel's locales other than English and German, not emoji's names in
    other languages."""
    if path.endswith(LEFT_OUT_OF_PACKAGES) or "/sboms/" in path:
        return False
    if path.startswith("babel/locale-data/"):
        return Path(path).stem in BABEL_LOCALES
    return not path.startswith("emoji/unicode_codes/emoji_")


def stage_app(folder: Path) -> None:
    """The app's folders, its translations and its packages (`__pypackages__`) in `folder`."""
    for part in APP_PARTS:
        copy_tree(ROOT / part, folder / part)
    shutil.copy2(SITE_FILES / SITE_MAIN, folder / SITE_MAIN)  # the site's entry, beside main.py
    for part in APP_ASSETS:
        copy_tree(ROOT / "assets" / part, folder / "assets" / part)
    for distribution in requirement_closure(APP_PACKAGES):
        for path, source in package_files(distribution):
            target = folder / "__pypackages__" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def compiled(folder: Path, dist: Path) -> None:
    """Every module in `folder` compiled by the site's own Python (web/site/compile.mjs, in
    Node.js); where Node.js is missing the modules stay source, and each start compiles what
    it imports."""
    node = shutil.which("node")
    if node is None:
        print("No Node.js here: the site's Python stays source (slower starts)", file=sys.stderr)
        return
    script = SITE_FILES / "compile.mjs"
    done = subprocess.run([node, str(script), str(dist / "pyodide"), str(folder)], check=False)
    if done.returncode != 0:  # an old Node.js, say: what it compiled is kept, the rest is source
        print("Node.js could not compile the site's Python (slower starts)", file=sys.stderr)


def zipped(folder: Path, archive: Path) -> None:
    """`folder` as a zip stored uncompressed: the site's brotli copy of the whole is a third
    smaller than a zip of files compressed one by one, and nothing is inflated at a start."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        for file in sorted(folder.rglob("*")):
            if file.is_file():  # dated alike: the same app makes the same site (its version)
                entry = zipfile.ZipInfo(file.relative_to(folder).as_posix(), (1980, 1, 1, 0, 0, 0))
                out.writestr(entry, file.read_bytes())


def python_parts(dist: Path) -> None:
    """app.zip (the app, its packages) and Pyodide's standard library, compiled and zipped."""
    with tempfile.TemporaryDirectory() as scratch:
        stage = Path(scratch)
        stage_app(stage / "app")
        stdlib = dist / "pyodide" / "python_stdlib.zip"
        with zipfile.ZipFile(stdlib) as source:
            source.extractall(stage / "stdlib")
        for unused in UNUSED_STDLIB:
            found = stage / "stdlib" / unused
            if found.is_dir():
                shutil.rmtree(found)
            elif found.exists():
                found.unlink()
        compiled(stage, dist)
        zipped(stage / "app", dist / APP_ARCHIVE)
        zipped(stage / "stdlib", stdlib)


def copy_tree(source: Path, target: Path) -> None:
    """The app's files of `source` (its code, page scripts and translations) into `target`;
    not the site's own (web/site/: the page's loader and service worker, served beside the
    archive, and the site's entry, which `stage_app` puts at the archive's top)."""
    for file in sorted(source.rglob("*") if source.is_dir() else [source]):
        relative = file.relative_to(source).as_posix() if source.is_dir() else ""
        if file.is_relative_to(SITE_FILES):
            continue
        if file.is_file() and "__pycache__" not in relative and file.suffix in APP_SUFFIXES:
            destination = target / relative if relative else target
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, destination)


def patch_page(dist: Path, base: str) -> None:
    """index.html told to run Python in the browser, from this site alone; the manifest named."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import (  # type: ignore[import-untyped]
        patch_font_manifest_json,
        patch_index_html,
        patch_manifest_json,
    )

    pyodide_version = json.loads((flet_web_dir() / "pyodide" / "package.json").read_text())
    patch_index_html(
        index_path=str(dist / "index.html"),
        base_href=base,
        app_name="Debrief",
        app_description="The scorepad for spy card games",
        pyodide=True,
        pyodide_script_path=SITE_MAIN,
        pyodide_version=pyodide_version["version"],
        app_package_url=APP_ARCHIVE,
        web_renderer=WebRenderer.CANVAS_KIT,
        route_url_strategy=RouteUrlStrategy.HASH,  # any static host: one page, no rewrites
        no_cdn=True,
    )
    index = dist / "index.html"
    page = index.read_text(encoding="utf-8")
    # A bare specifier ("pyodide/pyodide.mjs") is not a URL `import()` takes: relative to
    # the worker, which is at the site's root.
    page = page.replace('"pyodide/pyodide.mjs"', '"./pyodide/pyodide.mjs"')
    # Nothing from another host (Rive's runtime, which Flet's client asks a CDN for, though
    # Debrief shows no Rive animation): the policy the app's own server sends, as a meta tag
    # (which cannot say frame-ancestors).
    policy = "; ".join(
        part
        for part in CONTENT_SECURITY_POLICY.decode().split("; ")
        if "frame-ancestors" not in part
    )
    page = page.replace(
        "<head>", f'<head>\n  <meta http-equiv="Content-Security-Policy" content="{policy}">', 1
    )
    # The service worker first, then Flet's client (web/site/start.js).
    for flets_script in FLETS_SCRIPTS:
        assert flets_script in page, f"flet-web's index.html changed: {flets_script} not found"
        page = page.replace(flets_script, "")
    page = page.replace("</body>", '  <script src="start.js"></script>\n</body>')
    index.write_text(page, encoding="utf-8")
    shutil.copy2(SITE_FILES / "start.js", dist / "start.js")
    # Flutter's own service worker (deprecated, not shipped) would take the place of ours.
    bootstrap = dist / "flutter_bootstrap.js"
    code, found = FLUTTERS_WORKER.subn("", bootstrap.read_text(encoding="utf-8"))
    assert found == 1, "flet-web's flutter_bootstrap.js changed: no serviceWorkerSettings"
    bootstrap.write_text(code, encoding="utf-8")
    patch_font_manifest_json(str(dist / "assets" / "FontManifest.json"))  # Roboto, bundled
    patch_manifest_json(
        manifest_path=str(dist / "manifest.json"),
        app_name="Debrief",
        app_short_name="Debrief",
        app_description="The scorepad for spy card games",
        background_color="#FBF8FF",
        theme_color="#515B92",
    )


def compress_all(dist: Path) -> None:
    """FILE.br and FILE.gz beside each file worth compressing (kept only when a tenth
    smaller). Flet's client files are taken from the copies the app's own server keeps
    (storage/compressed.py: made once per machine, by `tools/dev.py` at setup) where they are
    made already: the same files, the same settings."""
    compress = compressors()
    if compress is None:
        print("brotli/deflate missing (the web extra): no compressed copies", file=sys.stderr)
        return
    served = CompressedCopies(client_files(ROOT / "assets"))
    for file in sorted(dist.rglob("*")):
        if not file.is_file() or not worth_compressing(file):
            continue
        path = file.relative_to(dist).as_posix()
        data: bytes | None = None
        for encoding, function in compress.items():
            made = served.copy(path, encoding) if served.complete else None
            target = file.with_name(file.name + SUFFIXES[encoding])
            if made is not None and filecmp.cmp(served.files[path], file, shallow=True):
                shutil.copyfile(made, target)
                continue
            data = file.read_bytes() if data is None else data
            packed = function(data)
            if len(packed) < WORTH_IT * len(data):
                target.write_bytes(packed)


def worth_compressing(file: Path) -> bool:
    return file.stat().st_size >= SMALLEST and (
        file.suffix in COMPRESSED or file.name in COMPRESSED_NAMES
    )


def every_start(dist: Path) -> list[str]:
    """What every start of the app loads, which the service worker keeps when it is installed
    (its install fetches them, so the first visit downloads each once): the page, its loader,
    manifest and icons, Flet's client and fonts, Pyodide, the app. Scripts kept at install
    are compiled ahead by Chromium for the next start. Kept as they are first fetched instead:
    the renderer (CanvasKit, a build for Chromium and one for other browsers) and the fonts
    Flutter falls back on for a character Roboto lacks."""
    icons = sorted(f"icons/{icon.name}" for icon in (dist / "icons").iterdir())
    pyodide = sorted(
        f"pyodide/{file.name}"
        for file in (dist / "pyodide").iterdir()
        if file.suffix not in (".br", ".gz") and file.name != "package.json"
    )
    return ["./", *STARTING_FILES, *icons, *pyodide]


def digest_of(dist: Path) -> str:
    """One digest of every file the site serves: a new build, a new cache."""
    digest = hashlib.sha256()
    for file in sorted(dist.rglob("*")):
        if file.is_file():
            digest.update(file.relative_to(dist).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def publish(dist: Path, base: str = "/") -> None:
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    copy_client(dist)
    python_parts(dist)
    patch_page(dist, base)
    version = digest_of(dist)
    worker = (SITE_FILES / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("__VERSION__", version)
    worker = worker.replace("__EVERY_START__", json.dumps(every_start(dist)))
    (dist / "sw.js").write_text(worker, encoding="utf-8")
    compress_all(dist)
    total = sum(f.stat().st_size for f in dist.rglob("*") if f.is_file())
    print(f"Debrief published to {dist} (version {version}, {total / 1e6:.1f} MB with copies)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", default=str(ROOT / "dist"))
    parser.add_argument("--base", default="/", help="the site's path on its host (e.g. /debrief/)")
    args = parser.parse_args(argv)
    publish(Path(args.dist).resolve(), args.base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
