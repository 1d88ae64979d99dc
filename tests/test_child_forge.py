"""The kill tests' children (tests/child_forge.py): each copy runs its script's `main()` with
its own arguments and its own stdout and stderr, and SIGKILL ends exactly it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from child_forge import FORKS, ChildForge, ForkedChild
from killed import killed

SCRIPT = textwrap.dedent(
    """
    import sys, time
    def main():
        if sys.argv[1] == "fail":
            print("ready fail", flush=True)
            raise ValueError("as asked")
        print("to stderr", file=sys.stderr, flush=True)  # before "ready": the test reads both
        print("ready", *sys.argv[1:], flush=True)
        time.sleep(60)
    """
)


@pytest.mark.skipif(not FORKS, reason="forking needs fork and pidfds (Linux)")
def test_each_copy_has_its_arguments_its_pipes_and_its_own_death(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(SCRIPT)
    with ChildForge(script, tmp_path) as children:
        first, second = children.start("one"), children.start("two")
        assert isinstance(first, ForkedChild) and first.pid != second.pid
        assert first.stdout.readline() == "ready one\n"
        assert second.stdout.readline() == "ready two\n"
        assert killed(first) == ("", "to stderr\n")  # its pipes end with it
        assert second.poll() is None  # the other copy lives on
        assert killed(second) == ("", "to stderr\n")
        failing = children.start("fail")
        assert failing.stdout.read() == "ready fail\n"  # to its end: the copy ended by itself
        assert "ValueError: as asked" in failing.stderr.read()  # a traceback, as Python prints
        failing.wait(timeout=30)
