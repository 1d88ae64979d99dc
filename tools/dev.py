"""Set up Debrief in a local virtual environment, then start it or test it.

    python3 tools/dev.py start [app arguments]   # e.g. --web --port 8550
    python3 tools/dev.py test  [pytest arguments]

Needs only Python 3.11+. The environment lives in .venv/ and is (re)installed whenever
pyproject.toml changes. `test` runs ruff, mypy --strict on scoring/, and pytest.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def ensure_environment(extras: str) -> None:
    """Create .venv and install the project (with `extras`) unless that is already done."""
    stamp = VENV / f".installed-{extras or 'app'}"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("Creating the virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing {target} ...", flush=True)
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", target])
    stamp.write_text(wanted)


def run(command: list[str]) -> int:
    """Run a command in the project folder; stop with its exit code when it fails."""
    result = subprocess.run(command, cwd=ROOT, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)
    return result.returncode


def start(arguments: list[str]) -> None:
    ensure_environment("")
    run([str(PYTHON), "main.py", *arguments])


def test(arguments: list[str]) -> None:
    ensure_environment("test")
    print("== ruff", flush=True)
    run([str(PYTHON), "-m", "ruff", "check", "."])
    print("== mypy --strict scoring/", flush=True)
    run([str(PYTHON), "-m", "mypy", "--strict", "scoring"])
    print("== pytest", flush=True)
    run([str(PYTHON), "-m", "pytest", *arguments])


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("start", "test"):
        print(__doc__)
        sys.exit(2)
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "start":
        start(arguments)
    else:
        test(arguments)


if __name__ == "__main__":
    main()
