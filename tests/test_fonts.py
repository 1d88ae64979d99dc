"""Every glyph the app shows is in a font it serves itself.

Roboto, the web client's own font, is served with the client. For a character Roboto lacks,
Flutter fetches a fallback font from this server (`no_cdn`) at the path Google Fonts uses;
`assets/assets/fonts/` holds those the app's texts need. A character in no served font is drawn
as an empty box.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import flet_web
from builders import ROOT
from fontTools.ttLib import TTFont

from views.i18n import load

CLIENT = Path(flet_web.__file__).parent / "web"
FALLBACKS = ROOT / "assets" / "assets" / "fonts"


def characters_in_code(folder: Path) -> set[str]:
    """Every character of every string literal in the folder's code (comments do not show)."""
    found: set[str] = set()
    for source in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found |= set(node.value)
    return found


def characters_shown() -> set[str]:
    german = load("de")
    texts = [*german.messages, *german.messages.values()]
    for (singular, plural), forms in german.plurals.items():
        texts += [singular, plural, *forms]
    found = set("".join(texts)) | characters_in_code(ROOT / "views")
    return {c for c in found if c.isprintable() and not c.isspace()}


def covered(font: Path) -> set[str]:
    return {chr(code) for code in TTFont(font).getBestCmap()}


def test_every_character_the_app_shows_is_in_a_served_font() -> None:
    served = covered(CLIENT / "assets" / "fonts" / "roboto.woff2")
    for fallback in FALLBACKS.rglob("*.woff2"):
        served |= covered(fallback)
    shown = characters_shown()
    assert {"→", "÷", "−", "ä", "ß"} <= shown  # what this test is for is really looked at
    assert sorted(shown - served) == []


def test_each_served_fallback_font_is_where_the_client_asks_for_it() -> None:
    asked = set(re.findall(r"[a-z0-9]+/v\d+/[\w-]+\.woff2", (CLIENT / "main.dart.js").read_text()))
    fallbacks = [font.relative_to(FALLBACKS).as_posix() for font in FALLBACKS.rglob("*.woff2")]
    assert fallbacks, "no fallback font is served"
    for fallback in fallbacks:
        assert fallback in asked, f"the client never asks for {fallback}: move it or drop it"
