"""The shape of views/ that keeps the app safe to change, checked on the syntax tree:
a game lives in its own module, and only AppState touches the store."""

from __future__ import annotations

import ast
from collections.abc import Collection
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


FLETS_BUTTONS = {"TextButton", "OutlinedButton", "FilledButton", "FilledTonalButton"}


def test_buttons_come_from_views_buttons_with_the_apps_style() -> None:
    """Flet's own buttons, named anywhere but views/buttons.py, would be drawn without the
    app's style: 40 px high on a desktop and unreadable while they wait (the page's theme
    cannot carry the style: see views/buttons.py)."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}: ft.{node.attr}"
        for path in sorted(VIEWS.rglob("*.py"))
        if path.name not in {"buttons.py", "app.py"}  # app.py only imports their modules early
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr in FLETS_BUTTONS
        and isinstance(node.value, ast.Name)
        and node.value.id == "ft"
    ]
    assert found == []


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


# --- imports between the app's packages --------------------------------------------------------

APP_PACKAGES = ("scoring", "storage", "views", "web")


def module_name(path: Path) -> str:
    """The dotted name a file of the app is imported by (views/games/__init__.py: views.games)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> dict[str, Path]:
    """Every module of the app: its packages and main.py (tests, tools and bench stand above)."""
    paths = [ROOT / "main.py"]
    paths += [path for package in APP_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    return {module_name(path): path for path in paths}


def imports_of(path: Path, modules: Collection[str]) -> set[str]:
    """What the module at `path` imports (see `imports_in`)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_in(ast.parse(path.read_text()), package, modules)


def imports_in(tree: ast.AST, package: str, modules: Collection[str]) -> set[str]:
    """What a module of `package` imports, wherever the import stands (inside a function or
    under `if TYPE_CHECKING:` too: a lazy import still ties two modules together). `from X
    import a` imports X.a where that is one of `modules`, else X; the packages Python loads on
    the way (X for X.a) do not count, or every package would be in a cycle with its modules."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return found


def absolute(node: ast.ImportFrom, package: str) -> str:
    """The module a `from ... import` reads, by its full name (`..state` in views.games:
    views.state)."""
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    anchor = parts[: len(parts) - node.level + 1]
    return ".".join([*anchor, *([node.module] if node.module else [])])


def import_graph() -> dict[str, set[str]]:
    """Each module of the app, and the modules of the app it imports."""
    modules = app_modules()
    return {name: imports_of(path, modules) & modules.keys() for name, path in modules.items()}


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module that `start` imports, straight or through others."""
    seen: set[str] = set()
    waiting = [start]
    while waiting:
        for module in graph[waiting.pop()] - seen:
            seen.add(module)
            waiting.append(module)
    return seen


def test_no_import_cycle() -> None:
    """Modules that import each other (even lazily, inside a function) cannot be understood,
    tested or moved one at a time: each module stands above all it imports."""
    graph = import_graph()
    in_a_cycle = sorted(module for module in graph if module in reachable(graph, module))
    assert in_a_cycle == []


def test_the_import_graph_sees_lazy_and_relative_imports() -> None:
    """What the cycle test reads: an import inside a function counts, relative ones resolved."""
    source = """
def later():
    from ..state import AppState
    from . import black_spy, view_of
    import scoring.table
"""
    modules = {"views.state", "views.games", "views.games.black_spy", "scoring.table"}
    assert imports_in(ast.parse(source), "views.games", modules) == modules
    assert "web.serve" in import_graph()["main"]  # main() imports it: desktops only


def imports_across(package: str, forbidden: set[str]) -> list[str]:
    """Each import by a module of `package` of anything under a top-level name in `forbidden`
    ("web.serve imports views.sharing")."""
    modules = app_modules()
    return [
        f"{name} imports {imported}"
        for name, path in modules.items()
        if name.split(".")[0] == package
        for imported in sorted(imports_of(path, modules))
        if imported.split(".")[0] in forbidden
    ]


def test_web_does_not_import_views() -> None:
    """web/ serves the app and guards its door; the screens sit above it and plug in (web.serve
    takes the app to serve as an argument), so the server can be read and tested alone."""
    assert imports_across("web", {"views"}) == []


def test_scoring_imports_no_ui_and_no_storage() -> None:
    """The rules are pure (scoring/__init__.py): no UI, no I/O, nothing of the app above them."""
    assert imports_across("scoring", {"flet", "tinydb", "storage", "views", "web"}) == []


# What a game's view module may use of the app: nothing but the game (AtTable's record and
# replay) and the one round entry (`Entering`: change, save, save_round), which saves, deletes
# and keeps drafts for it. The app (AtTable.app) is for the entry and the frame.
GAME_VIEWS = [
    *sorted(p for p in GAME_MODULES.glob("*.py") if p.stem != "__init__"),
    ROOT / "tests" / "dummy_game" / "coin_view.py",
]
APP_ONLY = {"app", "AppState", "store", "keep_draft", "discard_draft", "set_entry_mode"}


def names_used(tree: ast.AST) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.attr if isinstance(node, ast.Attribute) else node.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute | ast.Name)
    ]


def test_a_game_module_gets_the_game_and_the_round_entry_not_the_app() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in GAME_VIEWS
        for line, name in names_used(ast.parse(path.read_text()))
        if name in APP_ONLY
    ]
    assert found == []
