"""The static site's Python entry (tools/publish.py names it to Flet's worker in place of
main.py): Python's dataclasses made quicker to create, then the app's main run as
`python main.py` runs it.

Importing the app creates some 300 dataclasses (Debrief's and Flet's controls), and Python
creates each one's methods by compiling their source text at run time, then gives the class
a docstring of its signature where it has none (and the site's modules have none: they are
compiled without docstrings). In the browser's Python those two were half of what importing
the app took (Node.js, Pyodide 3.14: 640 ms, 300 with both skipped). So:

- the code objects of those methods are compiled when the site is published
  (`record`, run by web/site/compile.mjs with the site's own Python) and kept in
  `dataclass_code.marshal`, by a digest of their source; at a start, a source found there is
  run from its kept code, any other one is compiled as before;
- the signature docstring is not made: a class without a docstring gets its name and "()".

Outside the site (`python main.py`, the tests) none of this runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import marshal
import runpy
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

KEPT = Path(__file__).with_name("dataclass_code.marshal")


def digest(source: str) -> bytes:
    return hashlib.blake2b(source.encode(), digest_size=16).digest()


def compiled(source: str) -> types.CodeType:
    """`source` compiled as the dataclasses module's own `exec` compiles it: without this
    module's `from __future__` flags (they would turn the methods' annotations to strings)."""
    return compile(source, "<string>", "exec", dont_inherit=True)


def bare(code: types.CodeType) -> types.CodeType:
    """`code` without its line numbers (and so its nested functions'): a third of the size,
    and generated methods have no lines worth showing in a traceback."""
    consts = tuple(bare(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)


def running_kept(kept: dict[bytes, types.CodeType]) -> Callable[..., None]:
    """An `exec` for the dataclasses module that runs a source's kept code where there is one."""

    def kept_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if isinstance(source, str):
            source = kept.get(digest(source)) or compiled(source)
        exec(source, globals, locals)

    return kept_exec


def without_signature_docs() -> types.ModuleType:
    """The `inspect` the dataclasses module sees: the real one, except that a signature is not
    computed (used there only for the docstring of a class that has none, which is then the
    class's name and "()"). An empty one, not an error: Python 3.11.2's dataclasses (Debian
    12's) do not catch one there."""

    def no_signature(*_: object, **__: object) -> inspect.Signature:
        return inspect.Signature()

    quiet = types.ModuleType("inspect")
    quiet.__dict__.update(vars(inspect))
    quiet.signature = no_signature  # type: ignore[attr-defined]
    return quiet


def quicker_dataclasses() -> None:
    try:
        kept = marshal.loads(KEPT.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):  # none published: compiled as before
        kept = {}
    dataclasses.exec = running_kept(kept)  # type: ignore[attr-defined]
    dataclasses.inspect = without_signature_docs()  # type: ignore[attr-defined]


def record(module: str = "main") -> int:
    """Import `module` (the app) and keep the code of every source the dataclasses module
    compiles meanwhile in `dataclass_code.marshal`; returns how many."""
    recorded: dict[bytes, types.CodeType] = {}

    def recording_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if isinstance(source, str):
            code = compiled(source)
            recorded[digest(source)] = bare(code)
            source = code
        exec(source, globals, locals)

    dataclasses.exec = recording_exec  # type: ignore[attr-defined]
    dataclasses.inspect = without_signature_docs()  # type: ignore[attr-defined]
    __import__(module)
    KEPT.write_bytes(marshal.dumps(recorded))
    return len(recorded)


if __name__ == "__main__":
    quicker_dataclasses()
    runpy.run_module("main", run_name="__main__")
