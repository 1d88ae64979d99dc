"""Set up Debrief in a local virtual environment, then start it or test it.

    python3 tools/dev.py start [app arguments]   # e.g. --web --port 8550
    python3 tools/dev.py test  [pytest arguments]
    python3 tools/dev.py test --fast [pytest arguments]   # all but the browser tests
    python3 tools/dev.py publish [DIST] [--base /path/]   # the static site (dist/), offline

Needs only Python 3.11+. The environment lives in .venv/ and is (re)installed whenever
pyproject.toml changes. `test` runs ruff, mypy --strict on all the code, and pytest; the
browser tests need Debian's Chromium, which `test` installs where it can (as root, or with
sudo that needs no password) and otherwise names the one command to run, before anything else.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
TYPED = ["scoring", "storage", "views", "web", "main.py", "tests/dummy_game"]
BROWSER_PACKAGES = ["chromium", "fonts-dejavu-core"]
INSTALL_HINT = "sudo apt-get install chromium fonts-dejavu-core"


def ensure_environment(extras: str) -> None:
    """Create .venv and install the project (with `extras`) unless that is already done."""
    stamp = VENV / f".installed-{extras or 'app'}"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and any(
        installed(other, extras, wanted) for other in VENV.glob(".installed-*")
    ):
        return
    if not PYTHON.exists():
        if importlib.util.find_spec("ensurepip") is None:  # Debian and Ubuntu ship it apart
            print(
                "This Python cannot create a virtual environment (its venv module is not "
                "installed). Install it with:\n    sudo apt install python3-venv\n"
                "then run this command again.",
                flush=True,
            )
            sys.exit(1)
        print("Creating the virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing {target} ...", flush=True)
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    # pip compiles every installed module on one core (12 of the 27 s this install took on 2
    # cores); compileall does the same on every core (5 s).
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--no-compile", "-e", target])
    purelib = subprocess.run(
        [str(PYTHON), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(
        [str(PYTHON), "-m", "compileall", "-q", "-j", "0", purelib],
        stdout=subprocess.DEVNULL,
        check=False,  # a module that does not compile is pip's too
    )
    stamp.write_text(wanted)


def installed(stamp: Path, extras: str, wanted: str) -> bool:
    """Whether `stamp` says this pyproject.toml was installed with (at least) `extras`."""
    has = set(stamp.name.removeprefix(".installed-").split(",")) - {"app"}
    return set(filter(None, extras.split(","))) <= has and stamp.read_text() == wanted


def run(command: list[str]) -> int:
    """Run a command in the project folder; stop with its exit code when it fails."""
    result = subprocess.run(command, cwd=ROOT, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)
    return result.returncode


def start(arguments: list[str]) -> None:
    ensure_environment("web,desktop")
    compress_web_client()
    if can_show_a_window(arguments):
        # While this machine is online: the window's client is downloaded once (Flet's wheel
        # has none), so that a later start at a table without internet opens the window too.
        # None to be had: the app has said so (one line) and opens in the browser.
        fetched = subprocess.run([str(PYTHON), "main.py", "--window-client"], cwd=ROOT)
        if fetched.returncode == NO_CLIENT_EXIT:
            arguments = ["--web", *arguments]
    run([str(PYTHON), "main.py", *arguments])


NO_CLIENT_EXIT = 3  # main.py --window-client: no client kept, none downloadable


def can_show_a_window(arguments: list[str]) -> bool:
    """Whether `start` opens a window: not `--web` or `--share`, and a screen to show it on."""
    wants_browser = any(a in ("--web", "--share") for a in arguments)
    headless = sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
    return not wants_browser and not headless


COMPRESS = ["-m", "web.precompressed"]


def compress_web_client() -> None:
    """Compress the web client phones download once, at setup (web/precompressed.py): the
    app would otherwise do it in the background at its first start."""
    run([str(PYTHON), *COMPRESS])


def start_compressing(site: Path | None = None) -> subprocess.Popen[str]:
    """`compress_web_client` on the other core while Chromium is installed and ruff and mypy
    run (13 s of CPU, once per machine: in CI, every time); `finish` waits for it before the
    tests need it. With `site`, the static site is then published there for its browser test
    (tests/test_e2e_site.py, told by DEBRIEF_TEST_SITE, waits for `site_ready(site)`), which
    would publish it itself while the other tests want both cores: 16 s of CPU, which fit
    beside the setup and ruff and mypy instead. Each step's output goes to stderr; the process
    says on its stdout when each has ended."""
    steps = [[str(PYTHON), *COMPRESS]]
    if site is not None:
        steps.append([str(PYTHON), str(ROOT / "tools" / "publish.py"), str(site)])
    return in_turn(steps, site_ready(site) if site is not None else None)


# Runs commands one after another, each one's output to stderr; prints how each ended on
# stdout, and writes how the second ended to a file (whole: a reader never sees half of it).
IN_TURN = """import json, os, pathlib, subprocess, sys
steps, ready = json.loads(sys.argv[1]), sys.argv[2]
for number, step in enumerate(steps):
    ended = subprocess.run(step, stdout=sys.stderr).returncode
    print(ended, flush=True)
    if number == 1:
        pathlib.Path(ready + ".new").write_text(str(ended))
        os.replace(ready + ".new", ready)
    if ended:
        sys.exit(ended)
"""


def in_turn(steps: list[list[str]], ready: Path | None) -> subprocess.Popen[str]:
    """`steps` run one after another in the background (see `IN_TURN`)."""
    return subprocess.Popen(
        [str(PYTHON), "-c", IN_TURN, json.dumps(steps), str(ready or "")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=os.name != "nt",  # a group of its own: `stopped` ends its steps too
    )


def stopped(process: subprocess.Popen[str]) -> None:
    """The background steps ended, the one running included (a run stopped early: nothing
    left publishing into a folder that is removed)."""
    if process.poll() is None:
        if os.name == "nt":
            process.kill()
        else:
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    if process.stdout is not None:
        process.stdout.close()


def site_ready(site: Path) -> Path:
    """Where `start_compressing` writes how publishing `site` ended ("0": published)."""
    return site.with_name(site.name + ".ready")


def finish(process: subprocess.Popen[str]) -> None:
    """Wait until the web client is compressed (the site, if any, may still be published)."""
    assert process.stdout is not None
    ended = process.stdout.readline().strip()
    if ended != "0":
        sys.exit(int(ended) if ended.isdigit() else process.wait() or 1)


def ensure_chromium(arguments: list[str]) -> None:
    """The browser tests drive Debian's Chromium (Playwright never downloads a browser here):
    install it when this machine can, else stop at once with the command to run."""
    if shutil.which("chromium") or shutil.which("chromium-browser") or "not e2e" in arguments:
        return
    apt = shutil.which("apt-get")
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    sudo = [] if root else ["sudo", "-n"]
    can_sudo = root or (
        shutil.which("sudo") is not None
        and subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False).returncode == 0
    )
    if apt is None or not can_sudo:
        print(
            f"The browser tests need Chromium. Install it with:\n    {INSTALL_HINT}\n"
            "then run this command again (or run everything else: tools/dev.py test --fast).",
            flush=True,
        )
        sys.exit(1)
    print("Installing Chromium for the browser tests ...", flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", *BROWSER_PACKAGES],
    ):
        done = subprocess.run([*sudo, *command], env=environment, check=False)
        if done.returncode != 0:
            print(f"Could not install Chromium; run:\n    {INSTALL_HINT}", flush=True)
            sys.exit(done.returncode)


FAST = ["-m", "not e2e"]  # `test --fast`: everything but the browser tests


def test(arguments: list[str]) -> None:
    began = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="debrief-test-"))
    compressing: subprocess.Popen[str] | None = None
    try:
        fast = "--fast" in arguments
        if fast:
            arguments = [*FAST, *(a for a in arguments if a != "--fast")]
        ensure_environment("web,desktop,test")
        # The whole suite (no arguments) has the static site's test: its site is published
        # meanwhile. A run of chosen tests leaves that to the test, if it is chosen.
        site = None if arguments else scratch / "site"
        compressing = start_compressing(site)
        ensure_chromium(arguments)
        keep_compiled_modules()
        print("== ruff", flush=True)
        run([str(PYTHON), "-m", "ruff", "check", "."])
        print("== mypy --strict " + " ".join(TYPED), flush=True)
        run([str(PYTHON), "-m", "mypy", "--strict", *TYPED])
        finish(compressing)
        if site is not None:
            os.environ[SITE_VARIABLE] = str(site)
        print("== pytest", flush=True)
        run([str(PYTHON), "-m", "pytest", *parallel(arguments), *arguments])
    finally:
        if compressing is not None:
            stopped(compressing)
        shutil.rmtree(scratch, ignore_errors=True)
        minutes, seconds = divmod(round(time.monotonic() - began), 60)
        print(f"== took {minutes} min {seconds:02d} s", flush=True)


SITE_VARIABLE = "DEBRIEF_TEST_SITE"  # a site published for this run (tests/test_e2e_site.py)


def keep_compiled_modules() -> None:
    """Let the tests' Pythons keep the modules they compile (in `__pycache__/`, as Python does
    by default), also where the environment says to write none (PYTHONDONTWRITEBYTECODE, as on
    our CI machines): the tests start a Python some two hundred times (apps, command-line runs,
    killed children), and each compiled Debrief's modules again (10 s of the fast tests' 120 s
    of CPU). A cache prefix (PYTHONPYCACHEPREFIX) would keep the folders clean but compile the
    standard library and every package once more."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def parallel(arguments: list[str]) -> list[str]:
    """pytest-xdist's options unless the caller chose: one worker per core and two more, and
    tests handed out one at a time as workers get free, so that the long ones do not queue.
    The two more keep the cores busy while a test waits (for a server's deadline, a killed
    child, the browser's next frame): on 2 cores, with two workers the CPU was idle for 114 of
    its 750 seconds, with three for 34, and the run ended 20 s sooner; once the app drew less
    at each tap the whole suite took 4:44 with three workers, 4:10 with four and
    4:21 with five (2026-11-27). Without the browser tests (`--fast`) two more as well: those
    tests wait more (a door's deadlines), and on 2 cores four workers ended them in 56 and 51 s
    where three took 65 and 67."""
    if any(a == "-n" or a.startswith(("-n", "--numprocesses", "--dist")) for a in arguments):
        return []
    if "-p" in arguments and "no:xdist" in arguments:
        return []
    workers = (os.cpu_count() or 1) + 2
    return ["-n", str(workers), "--dist", "worksteal"]


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("start", "test", "publish"):
        print(__doc__)
        sys.exit(2)
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "start":
        start(arguments)
    elif command == "publish":
        publish(arguments)
    else:
        test(arguments)


def publish(arguments: list[str]) -> None:
    """The static site (tools/publish.py), built from this environment with no internet."""
    ensure_environment("web")
    run([str(PYTHON), str(ROOT / "tools" / "publish.py"), *arguments])


if __name__ == "__main__":
    main()
