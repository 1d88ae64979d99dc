"""The static site's entry (web/site/site_main.py): the methods of the app's dataclasses are
run from code compiled when the site was published, and behave as if compiled at the start."""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import pytest

from web.site import site_main

MODULE = "kept_dataclasses_example"
SOURCE = textwrap.dedent(
    """
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Deal:
        dealer: str
        points: int = 0
        piles: tuple[int, ...] = ()

    @dataclasses.dataclass(order=True)
    class Seat:
        number: int
        name: str = dataclasses.field(default="", compare=False)
    """
)


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module of dataclasses to import, and the dataclasses module restored afterwards."""
    (tmp_path / f"{MODULE}.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(site_main, "KEPT", tmp_path / "dataclass_code.marshal")
    monkeypatch.setattr(dataclasses, "exec", builtins.exec, raising=False)
    monkeypatch.setattr(dataclasses, "inspect", vars(dataclasses)["inspect"])
    yield tmp_path
    sys.modules.pop(MODULE, None)


def compiles_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources site_main compiles from now on (those it found no kept code for)."""
    compiled: list[str] = []
    real = site_main.compiled

    def counted(source: str) -> CodeType:
        compiled.append(source)
        return real(source)

    monkeypatch.setattr(site_main, "compiled", counted)
    return compiled


def fresh_import() -> object:
    sys.modules.pop(MODULE, None)
    return importlib.import_module(MODULE)


def test_kept_code_is_used_and_makes_the_same_classes(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = site_main.record(MODULE)
    assert kept >= 2  # each class's methods, at least
    site_main.quicker_dataclasses()
    compiled = compiles_counted(monkeypatch)
    module = fresh_import()
    assert compiled == []  # every method came from the kept code
    Deal, Seat = module.Deal, module.Seat  # type: ignore[attr-defined]
    deal = Deal("Anna", 3, (1, 2))
    assert deal == Deal("Anna", 3, (1, 2)) and deal != Deal("Ben")
    assert repr(deal) == "Deal(dealer='Anna', points=3, piles=(1, 2))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        deal.points = 4
    assert hash(deal) == hash(Deal("Anna", 3, (1, 2)))
    assert Seat(1, "Anna") < Seat(2, "Ben") and Seat(1, "Anna") == Seat(1, "Carla")
    # Annotations as the dataclasses module's own compiling gives them: objects, not the
    # strings this test's (and site_main's) `from __future__ import annotations` would make.
    assert Deal.__init__.__annotations__["points"] is int
    assert Deal.__doc__ == "Deal()"  # no signature computed for it


def test_a_source_not_kept_is_compiled_as_before(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site_main.record(MODULE)
    (example / f"{MODULE}.py").write_text(SOURCE.replace("points: int = 0", "score: int = 1"))
    site_main.quicker_dataclasses()
    compiled = compiles_counted(monkeypatch)
    module = fresh_import()
    assert any("score" in source for source in compiled)  # the changed class's methods
    assert module.Deal("Anna").score == 1  # type: ignore[attr-defined]


def test_without_kept_code_the_site_starts_as_before(example: Path) -> None:
    site_main.quicker_dataclasses()  # no file published
    module = fresh_import()
    assert module.Deal("Anna").points == 0  # type: ignore[attr-defined]
