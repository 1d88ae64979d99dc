"""Cut Flet's Material icon font down to the icons Debrief shows, for the web client.

    .venv/bin/python tools/icon_font.py

Flet's web client loads the whole Material icon font at start (1.2 MB; 470 KB gzipped, a tenth
of what a guest's phone downloads to join), because a Flet app may show any of its 8,600
icons. Debrief shows a few dozen: those its screens name (`ft.Icons.…` in views/) and those
Flutter's own widgets draw (a back arrow, a dropdown's arrow, a date picker's chevrons). This
writes the font with only those to assets/assets/fonts/, where the served client finds it
before its own (assets/assets/README.md). Run it again when a screen takes a new icon;
tests/test_fonts.py says when one is missing.

Each icon of Flet's `ft.Icons` is Flutter's icon of that name, whose glyph in the font is
named after it: `HOME` is "home_baseline", `HOME_OUTLINED` "home_outlined".
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FONT_PATH = Path("assets/fonts/MaterialIcons-Regular.otf")  # where the client asks for it
SERVED = ROOT / "assets" / FONT_PATH  # the assets folder answers for the root
SCREENS = [ROOT / "views", ROOT / "main.py"]
STYLES = ("_outlined", "_rounded", "_sharp")
# What Flutter's Material widgets draw themselves, on every platform a browser reports.
FLUTTER_OWN = [
    "ACCESS_TIME",
    "ADD",
    "ARROW_BACK",
    "ARROW_BACK_IOS",
    "ARROW_BACK_IOS_NEW",
    "ARROW_DOWNWARD",
    "ARROW_DROP_DOWN",
    "ARROW_DROP_UP",
    "ARROW_FORWARD",
    "ARROW_FORWARD_IOS",
    "ARROW_UPWARD",
    "CALENDAR_TODAY",
    "CANCEL",
    "CHECK",
    "CHECK_BOX",
    "CHECK_BOX_OUTLINE_BLANK",
    "CHEVRON_LEFT",
    "CHEVRON_RIGHT",
    "CLEAR",
    "CLOSE",
    "DATE_RANGE",
    "DRAG_HANDLE",
    "EDIT",
    "EDIT_OUTLINED",
    "ERROR",
    "EXPAND_LESS",
    "EXPAND_MORE",
    "INFO",
    "KEYBOARD",
    "KEYBOARD_ARROW_DOWN",
    "KEYBOARD_ARROW_LEFT",
    "KEYBOARD_ARROW_RIGHT",
    "KEYBOARD_ARROW_UP",
    "MENU",
    "MORE_HORIZ",
    "MORE_VERT",
    "RADIO_BUTTON_CHECKED",
    "RADIO_BUTTON_UNCHECKED",
    "REMOVE",
    "SCHEDULE",
    "SEARCH",
    "VISIBILITY",
    "VISIBILITY_OFF",
]


def icons_named(paths: list[Path] = SCREENS) -> set[str]:
    """Every `ft.Icons.NAME` (or `Icons.NAME`) the code at `paths` names."""
    names: set[str] = set()
    files = [p for path in paths for p in ([path] if path.is_file() else path.rglob("*.py"))]
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(), str(file))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, (ast.Attribute, ast.Name))
                and (getattr(node.value, "attr", None) or getattr(node.value, "id", None))
                == "Icons"
            ):
                names.add(node.attr)
    return names


def glyph_name(icon: str) -> str:
    """The font's glyph for Flet's icon `icon` ("HOME" -> "home_baseline")."""
    name = icon.lower()
    return name if name.endswith(STYLES) else f"{name}_baseline"


def wanted_glyphs() -> set[str]:
    return {glyph_name(icon) for icon in icons_named() | set(FLUTTER_OWN)}


def flet_font() -> Path:
    import flet_web

    return Path(flet_web.__file__).parent / "web" / FONT_PATH


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(flet_font())
    glyphs = wanted_glyphs()
    missing = glyphs - set(font.getGlyphOrder())
    if missing:
        sys.exit(f"No such icons in Flet's font: {sorted(missing)}")
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the font's names and its licence notice
    options.notdef_outline = True
    options.layout_features = []
    cutter = subset.Subsetter(options)
    cutter.populate(glyphs=sorted(glyphs))
    cutter.subset(font)
    SERVED.parent.mkdir(parents=True, exist_ok=True)
    font.save(SERVED)
    print(f"{SERVED.relative_to(ROOT)}: {len(glyphs)} icons, {SERVED.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
