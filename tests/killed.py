"""Children the kill tests end with SIGKILL, and everything they printed."""

from __future__ import annotations

from child_forge import Child


def killed(child: Child) -> tuple[str, str]:
    """Kill `child` (unless it has ended) and return what it printed on stdout and stderr
    that the test has not read yet. Read through the text streams, never `communicate()`:
    that reads the pipes themselves, past the lines a `readline()` before it had already
    taken into its buffer (a loaded machine let a child print "ready" and its first saves
    at once, and those saves were lost to the test)."""
    assert child.stdout is not None and child.stderr is not None
    if child.poll() is None:
        child.kill()
    out, err = child.stdout.read(), child.stderr.read()  # the child is dead: both end
    child.wait()
    return out, err
