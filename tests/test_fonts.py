"""Every glyph the app shows is in a font it serves itself.

Roboto, the web client's own font, is served with the client. For a character Roboto lacks,
Flutter fetches a fallback font from this server (`no_cdn`) at the path Google Fonts uses;
`assets/assets/fonts/` holds those the app's texts need. A character in no served font is drawn
as an empty box.

Players' names may carry emoji: for those the client picks pieces of Noto Color Emoji
from its own table (tools/emoji_font.py reads it) and fetches them from here too.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import flet_web
from builders import ROOT, SCENARIOS
from fontTools.ttLib import TTFont

from tools.emoji_font import client_fallbacks
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


@cache
def opened(font: Path) -> TTFont:
    return TTFont(font)


def test_every_character_the_app_shows_is_in_a_served_font() -> None:
    served = covered(CLIENT / "assets" / "fonts" / "roboto.woff2")
    for fallback in FALLBACKS.rglob("*.woff2"):
        served |= covered(fallback)
    shown = characters_shown()
    assert {"→", "÷", "−", "ä", "ß"} <= shown  # what this test is for is really looked at
    assert sorted(shown - served) == []


def test_each_served_fallback_font_is_where_the_client_asks_for_it() -> None:
    asked = set(re.findall(r"[a-z0-9]+/v\d+/[\w.-]+\.woff2", (CLIENT / "main.dart.js").read_text()))
    fallbacks = [font.relative_to(FALLBACKS).as_posix() for font in FALLBACKS.rglob("*.woff2")]
    assert fallbacks, "no fallback font is served"
    for fallback in fallbacks:
        assert fallback in asked, f"the client never asks for {fallback}: move it or drop it"


# --- emoji in players' names ----------------------------------------------------------------

SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # 🏴󠁧󠁢󠁳󠁣󠁴󠁿
EMOJI_NAMES = [f"{SCOTLAND} Ailsa", "\U0001f469\u200d\U0001f4bb Kim", "\u2764\ufe0f Mo"]
VARIATION_SELECTOR = "\ufe0f"  # no font has it: it asks for the emoji look, drawn anyway
MAX_EMOJI_BYTES = 2_500_000  # twelve COLRv1 pieces; as bitmaps (CBDT) they are 5 times that


def names_in_scenarios() -> set[str]:
    names = set()
    for path in SCENARIOS.glob("*.json"):
        if not path.name.endswith(".expected.json"):
            names |= {player["name"] for player in json.loads(path.read_text())["players"]}
    return names


def ligatures(font: TTFont) -> dict[tuple[str, ...], str]:
    """Every sequence of glyphs the font's GSUB makes one glyph of (ZWJ sequences, flags)."""
    found = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            if lookup.LookupType == 7:
                table = table.ExtSubTable
            if table.LookupType == 4:
                for first, made in table.ligatures.items():
                    for ligature in made:
                        found[(first, *ligature.Component)] = ligature.LigGlyph
    return found


def in_colour(font: TTFont, glyph: str) -> bool:
    colr = font["COLR"]
    return colr.version == 1 and any(
        record.BaseGlyph == glyph for record in colr.table.BaseGlyphList.BaseGlyphPaintRecord
    )


def test_every_emoji_piece_is_served_with_every_code_point_the_client_gives_it() -> None:
    """Whichever piece the client picks for the characters on screen, it has their glyphs (it
    picks by its table, never looking into the fonts), in colour, at the path it asks for."""
    client = client_fallbacks()
    pieces = client.pieces()
    assert len(pieces) == 12
    for piece in pieces:
        served = FALLBACKS / piece.path
        assert served.is_file(), f"{piece.name} is not served at {piece.path}"
        font = opened(served)
        cmap = font.getBestCmap()
        assert sorted(client.code_points(piece) - set(cmap)) == [], piece.name
        assert "SVG " not in font and "CBDT" not in font, piece.name
        assert in_colour(font, cmap[min(client.code_points(piece) - {0x200D})]), piece.name
        assert (served.parents[1] / "OFL.txt").read_text().count("SIL Open Font License") >= 1
    assert sum((FALLBACKS / p.path).stat().st_size for p in pieces) < MAX_EMOJI_BYTES


def test_emoji_names_draw_from_the_pieces_the_client_fetches_for_them() -> None:
    """For each name with emoji (the issue's and the scenarios'), the client fetches the
    pieces its table picks for the characters Roboto lacks; those pieces have each of them, and
    turn each emoji sequence (a ZWJ sequence, a flag of tag characters) into one colour glyph."""
    roboto = covered(CLIENT / "assets" / "fonts" / "roboto.woff2")
    client = client_fallbacks()
    names = set(EMOJI_NAMES) | names_in_scenarios()
    emoji_names = 0
    for name in sorted(names):
        lacking = {c for c in name if c not in roboto and ord(c) >= 160}  # as the client asks
        if not lacking:
            continue
        chosen = client.chosen(ord(c) for c in lacking)
        unserved = [font.path for font in chosen if not (FALLBACKS / font.path).is_file()]
        assert unserved == [], f"{name!r}: the client fetches what is not served"
        fonts = [opened(FALLBACKS / font.path) for font in chosen]
        cmaps = [font.getBestCmap() for font in fonts]
        assert sorted(c for c in lacking if not any(ord(c) in m for m in cmaps)) == [
            VARIATION_SELECTOR
        ] * (VARIATION_SELECTOR in lacking), name
        emoji_names += any(font.name.startswith("Noto Color Emoji") for font in chosen)
        for word in name.split():
            sequence = [ord(c) for c in word if c in lacking and c != VARIATION_SELECTOR]
            if len(sequence) < 2:
                continue
            made = [
                ligatures(font).get(tuple(cmap.get(c, "") for c in sequence))
                for font, cmap in zip(fonts, cmaps, strict=True)
            ]
            assert any(
                glyph and in_colour(font, glyph) for font, glyph in zip(fonts, made, strict=True)
            ), f"{word!r} of {name!r} is not one glyph"
    assert emoji_names >= len(EMOJI_NAMES)


# --- the icon font: cut down to the icons the app shows (tools/icon_font.py) -------------------

SERVED_ICONS = ROOT / "assets" / "assets" / "fonts" / "MaterialIcons-Regular.otf"


def test_every_icon_the_screens_name_is_in_the_served_icon_font() -> None:
    """An icon left out of the cut-down font would be drawn as nothing: each one the code names
    (and each Flutter's own widgets draw) has its glyph, at the code point of Flet's font."""
    from tools.icon_font import FLUTTER_OWN, flet_font, glyph_name, icons_named

    named = icons_named()
    assert {"HOME", "ARROW_BACK", "QR_CODE_2"} <= named  # it finds them in the screens' code
    full = {glyph: code for code, glyph in TTFont(flet_font()).getBestCmap().items()}
    served = {glyph: code for code, glyph in TTFont(SERVED_ICONS).getBestCmap().items()}
    for icon in sorted(named | set(FLUTTER_OWN)):
        glyph = glyph_name(icon)
        assert served.get(glyph) == full[glyph], f"{icon} ({glyph}): run tools/icon_font.py"


def test_the_client_loads_no_font_the_app_does_not_show() -> None:
    """The served FontManifest (the app's own, before Flet's) names the icon font alone (Flet
    adds Roboto): not the KaTeX and Cupertino fonts Flet's client would load at every start."""
    manifest = json.loads((ROOT / "assets" / "assets" / "FontManifest.json").read_text())
    assert [family["family"] for family in manifest] == ["MaterialIcons"]
    for family in manifest:
        for font in family["fonts"]:
            assert (ROOT / "assets" / "assets" / font["asset"]).is_file()
