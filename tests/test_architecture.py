"""The shape of views/ that keeps the app safe to change (issue 10), checked on the syntax tree:
a game lives in its own module, and only AppState touches the store."""

from __future__ import annotations

import ast
from pathlib import Path

from builders import ROOT

import scoring

VIEWS = ROOT / "views"
GAME_MODULES = VIEWS / "games"


def literals(path: Path) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def own_game(path: Path) -> str | None:
    """The game a module of views/games is the home of (black_spy.py: "black-spy")."""
    if path.parent != GAME_MODULES or path.stem == "__init__":
        return None
    return path.stem.replace("_", "-")


def test_no_game_id_outside_its_own_module() -> None:
    """Views outside a game's module ask the registry; they never name a game."""
    ids = set(scoring.GAMES)
    found = []
    for path in sorted(VIEWS.rglob("*.py")):
        allowed = own_game(path)
        found += [
            f"{path.relative_to(ROOT)}:{line}: {text!r}"
            for line, text in literals(path)
            if text in ids and text != allowed
        ]
    assert found == []


def test_every_game_has_a_module() -> None:
    modules = {path.stem.replace("_", "-") for path in GAME_MODULES.glob("*.py")} - {"--init--"}
    assert set(scoring.GAMES) <= modules


def test_only_app_state_reaches_the_store() -> None:
    """Screens change data through AppState; `state.store` (or `._store`) is not theirs."""
    found = []
    for path in sorted(VIEWS.rglob("*.py")):
        if path == VIEWS / "state.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert found == []


def test_revision_is_bumped_only_inside_app_state() -> None:
    found = []
    for path in sorted(VIEWS.rglob("*.py")):
        if path == VIEWS / "state.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = (
                [node.target]
                if isinstance(node, ast.AugAssign | ast.AnnAssign)
                else node.targets
                if isinstance(node, ast.Assign)
                else []
            )
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "revision":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_at_most_ten_any_in_views_at_the_flet_boundary() -> None:
    count = sum(
        1
        for path in VIEWS.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Name) and node.id == "Any"
    )
    assert count <= 10


def calls_to(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    ]


def test_no_tooltip_on_a_screen_with_a_text_field() -> None:
    """A tooltip shows while the mouse rests on its control and hides once it leaves. On the
    web, Flutter then re-inserts the semantics elements beside it, the focused text field's
    among them: the field loses the keyboard, and what is typed next (or the Enter that adds a
    player) is lost. Seen in a browser: a name typed into New player right after tapping the
    chosen game's card, 4 starts in 8. Such screens name their controls without tooltips."""
    found = []
    for path in sorted(VIEWS.rglob("*.py")):
        tree = ast.parse(path.read_text())
        if not calls_to(tree, "TextField"):
            continue
        found += [
            f"{path.relative_to(ROOT)}:{keyword.value.lineno}"
            for call in ast.walk(tree)
            if isinstance(call, ast.Call)
            for keyword in call.keywords
            if keyword.arg == "tooltip"
            and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        ]
    assert found == []
