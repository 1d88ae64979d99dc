"""Build the emoji fallback fonts the served web client asks for.

    python tools/emoji_font.py [--source FONT.woff2]

Roboto has no emoji. For a character Roboto lacks, Flutter's web client picks fallback fonts from
a table built into main.dart.js (the fonts Google Fonts serves, and which code points each
covers) and fetches them from this server (`no_cdn`) at Google Fonts' paths. Noto Color Emoji is
twelve pieces there, "Noto Color Emoji 0" to "11", each covering part of the emoji; the client
fetches only the piece(s) the characters on screen need. This script cuts a whole Noto Color
Emoji into those twelve pieces, each with exactly the code points the client's table gives it
(and every sequence of them: ZWJ sequences, flags, keycaps, skin tones), at the path the client
asks for, under assets/assets/fonts/, with the font's license.

The font is COLRv1 (colour layers as vector outlines), the format CanvasKit draws: the bitmap
build (CBDT, Debian's fonts-noto-color-emoji) loads but draws empty boxes, and is 5 times
larger (the piece for 👩‍💻, 14 times). The source is the whole font of npm's
@fontsource/noto-color-emoji (SIL Open Font License 1.1), fetched with `npm pack` at a pinned
version and checked by its SHA-256; its OpenType-SVG table (for Safari) is dropped. `--source`
takes a font file instead.

The same pieces come out, byte for byte, for the same source, flet-web client and fontTools
(the source's timestamp is kept: no "modified now" makes them differ).
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FALLBACKS = ROOT / "assets" / "assets" / "fonts"
EMOJI = "Noto Color Emoji"

PACKAGE = "@fontsource/noto-color-emoji@5.3.2"  # Noto Color Emoji 2.057 (2026-09), COLRv1
PACKAGE_FONT = "package/files/noto-color-emoji-emoji-400-normal.woff2"
PACKAGE_LICENSE = "package/LICENSE"
FONT_SHA256 = "78ea7dad943f1caa3d31bd4ad1ac2e14491f3e433597d83a9dcca8094cafbbb3"


def client_script() -> str:
    import flet_web

    return (Path(flet_web.__file__).parent / "web" / "main.dart.js").read_text(encoding="utf-8")


@dataclass(frozen=True)
class FallbackFont:
    name: str  # "Noto Color Emoji 8"
    path: str  # under assets/fonts/: "notocoloremoji/v32/….8.woff2"
    index: int  # its place in the client's list (the client prefers the first on a tie)


class ClientFallbacks:
    """The client's fallback-font table (Flutter's engine, font_fallback_data.dart, as compiled
    into main.dart.js): the fonts, and for every code point the fonts that cover it."""

    def __init__(self, script: str) -> None:
        listed = re.findall(r'\("(Noto [^"]+)","([a-z0-9]+/v\d+/[\w.-]+\.woff2)"\)', script)
        self.fonts = [FallbackFont(name, path, i) for i, (name, path) in enumerate(listed)]
        if not self.fonts or self.fonts[0].name != f"{EMOJI} 0":
            raise ValueError("the client's fallback font list was not found in main.dart.js")
        # The font sets: "," then sets of font indices (delta coded); then, right after, the
        # map of every code point to one of those sets (run-length coded).
        sets_found = re.search(r'"(,[a-z0-9,]{1000,})"', script)
        if sets_found is None:
            raise ValueError("the client's font sets were not found in main.dart.js")
        map_found = re.compile(r'"([0-9A-Za-z]{1000,})"').search(script, sets_found.end())
        if map_found is None:
            raise ValueError("the client's code point map was not found in main.dart.js")
        sets = [self._font_set(part) for part in sets_found.group(1).split(",")]
        self._ends, self._sets = self._code_point_map(map_found.group(1), sets)

    def _font_set(self, encoded: str) -> tuple[FallbackFont, ...]:
        found, last, prefix = [], -1, 0
        for char in encoded:
            if char.isdigit():
                prefix = prefix * 10 + int(char)
            else:
                last += prefix * 26 + (ord(char) - ord("a")) + 1
                found.append(self.fonts[last])
                prefix = 0
        return tuple(found)

    @staticmethod
    def _code_point_map(
        encoded: str, sets: list[tuple[FallbackFont, ...]]
    ) -> tuple[list[int], list[tuple[FallbackFont, ...]]]:
        ends: list[int] = []
        values: list[tuple[FallbackFont, ...]] = []
        end, prefix, size = 0, 0, 1
        for char in encoded:
            if char.isdigit():
                prefix = prefix * 10 + int(char)
            elif char.islower():
                size = prefix * 26 + (ord(char) - ord("a")) + 2
                prefix = 0
            else:
                end += size
                ends.append(end)
                values.append(sets[prefix * 26 + (ord(char) - ord("A"))])
                prefix, size = 0, 1
        if end != 0x110000:
            raise ValueError(f"the client's code point map covers {end} code points")
        return ends, values

    def fonts_for(self, code_point: int) -> tuple[FallbackFont, ...]:
        """The fallback fonts the client knows to cover `code_point`."""
        return self._sets[bisect.bisect_right(self._ends, code_point)]

    def code_points(self, font: FallbackFont) -> set[int]:
        found: set[int] = set()
        start = 0
        for end, fonts in zip(self._ends, self._sets, strict=True):
            if font in fonts:
                found.update(range(start, end))
            start = end
        return found

    def pieces(self, family: str = EMOJI) -> list[FallbackFont]:
        return [font for font in self.fonts if font.name.rsplit(" ", 1)[0] == family]

    def chosen(self, missing: Iterable[int]) -> list[FallbackFont]:
        """The fonts the client fetches for these missing code points (as the engine's
        FontFallbackManager does, for a language other than Chinese, Japanese or Korean):
        again and again the font that covers most of those not yet covered; on a tie Noto
        Sans Symbols, or else the first in its list. Code points no font covers are left."""
        counts: dict[FallbackFont, set[int]] = {}
        for code_point in missing:
            for font in self.fonts_for(code_point):
                counts.setdefault(font, set()).add(code_point)
        chosen: list[FallbackFont] = []
        while counts:
            most = max(len(points) for points in counts.values())
            best = [font for font, points in counts.items() if len(points) == most]
            symbols = [font for font in best if font.name == "Noto Sans Symbols"]
            pick = symbols[0] if symbols else min(best, key=lambda font: font.index)
            chosen.append(pick)
            covered = counts.pop(pick)
            counts = {f: p - covered for f, p in counts.items() if p - covered}
        return chosen


@cache
def client_fallbacks() -> ClientFallbacks:
    return ClientFallbacks(client_script())


def fetched_source(folder: Path) -> tuple[Path, Path]:
    """The whole COLRv1 Noto Color Emoji and its license, from the pinned npm package."""
    subprocess.run(
        ["npm", "pack", PACKAGE, "--pack-destination", str(folder), "--silent"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    [packed] = folder.glob("*.tgz")
    with tarfile.open(packed) as archive:
        for member in (PACKAGE_FONT, PACKAGE_LICENSE):
            archive.extract(member, folder, filter="data")
    return folder / PACKAGE_FONT, folder / PACKAGE_LICENSE


def build_piece(source: Path, code_points: set[int], target: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, recalcTimestamp=False)
    if "SVG " in font:  # the same emoji again, as SVG documents, for Safari: CanvasKit reads COLR
        del font["SVG "]
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # every sequence of the piece's code points (GSUB ccmp)
    options.name_IDs = ["*"]  # the copyright and license lines stay
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(code_points))
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.save(target)


def build(source: Path, license_text: str) -> list[Path]:
    from fontTools.ttLib import TTFont

    font = TTFont(source, recalcTimestamp=False)
    if "COLR" not in font or font["COLR"].version != 1:
        raise SystemExit(f"{source} is not a COLRv1 font: CanvasKit draws no other colour emoji")
    has = set(font.getBestCmap())
    client = client_fallbacks()
    pieces = client.pieces()
    folders = {Path(piece.path).parent for piece in pieces}
    for old in [f for folder in folders for f in (FALLBACKS / folder).glob("*.woff2")]:
        old.unlink()
    built = []
    with tempfile.TemporaryDirectory() as work:
        plain = Path(work) / "whole.ttf"  # decompressed once, not for every piece
        font.flavor = None
        font.save(plain)
        for piece in pieces:
            wanted = client.code_points(piece)
            if not wanted <= has:
                missing = ", ".join(f"U+{c:04X}" for c in sorted(wanted - has)[:10])
                raise SystemExit(f"{source} lacks code points of {piece.name}: {missing}")
            target = FALLBACKS / piece.path
            build_piece(plain, wanted, target)
            built.append(target)
            print(f"{piece.name}: {len(wanted)} code points, {target.stat().st_size} bytes")
    family = FALLBACKS / Path(pieces[0].path).parts[0]
    (family / "OFL.txt").write_text(license_text, encoding="utf-8")
    return built


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="a COLRv1 Noto Color Emoji (else npm's)")
    parser.add_argument("--license", type=Path, help="its license text (with --source)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if args.source is None:
            source, license_file = fetched_source(Path(work))
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
            if digest != FONT_SHA256:
                raise SystemExit(f"{PACKAGE}: the font's SHA-256 is {digest}, not {FONT_SHA256}")
        else:
            if args.license is None:
                parser.error("--source needs --license")
            source, license_file = args.source, args.license
        built = build(source, license_file.read_text(encoding="utf-8"))
    print(f"{len(built)} pieces, {sum(p.stat().st_size for p in built)} bytes in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
