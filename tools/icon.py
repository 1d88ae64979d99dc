"""Draw Debrief's app icon: a playing card with a keyhole, in the app's indigo.

    pip install pillow && python tools/icon.py

Writes assets/icon.png (1024 px, full-bleed, for iOS, the web and desktops),
assets/icon_android.png (the card alone on transparency, inside the middle 66 % an
Android adaptive icon's mask always shows; its background colour is in pyproject.toml) and
assets/icons/loading-animation.png, what the web client shows while it loads (in place of
Flet's own, 24 KB: this one is 1.5 KB of a phone's first join), and the web app's icons
(assets/icons/icon-*.png, assets/favicon.png: `web_icons`).
Pillow is needed only here, once, not by the app.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

SIZE = 1024
INDIGO = (81, 91, 146)  # #515B92, the theme's primary (views/theme.py, light)
CARD = (250, 248, 255)
SHADOW = (40, 47, 96)
OUT = Path(__file__).resolve().parent.parent / "assets"


def card(draw: ImageDraw.ImageDraw, scale: float) -> None:
    """The card, tilted a little like one just laid on the table, with a keyhole in it."""
    centre = SIZE / 2
    width, height = 400 * scale, 560 * scale
    left, top = centre - width / 2, centre - height / 2
    radius = 48 * scale
    offset = 18 * scale
    draw.rounded_rectangle(
        (left + offset, top + offset, left + width + offset, top + height + offset),
        radius,
        fill=SHADOW,
    )
    draw.rounded_rectangle((left, top, left + width, top + height), radius, fill=CARD)
    hole = 78 * scale
    hole_top = centre - 120 * scale
    draw.ellipse((centre - hole, hole_top, centre + hole, hole_top + 2 * hole), fill=INDIGO)
    neck, foot = 40 * scale, 96 * scale
    stem_top = hole_top + 1.4 * hole
    stem_bottom = centre + 170 * scale
    draw.polygon(
        [
            (centre - neck, stem_top),
            (centre + neck, stem_top),
            (centre + foot, stem_bottom),
            (centre - foot, stem_bottom),
        ],
        fill=INDIGO,
    )


def tilted(image: Image.Image, background: tuple[int, ...] | None) -> Image.Image:
    turned = image.rotate(-8, resample=Image.Resampling.BICUBIC, expand=False)
    if background is None:
        return turned
    base = Image.new("RGBA", image.size, background)
    base.alpha_composite(turned)
    return base


def main() -> None:
    full = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    card(ImageDraw.Draw(full), 1.0)
    tilted(full, (*INDIGO, 255)).convert("RGB").save(OUT / "icon.png")
    foreground = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    card(ImageDraw.Draw(foreground), 0.78)  # inside the safe zone of an adaptive icon
    tilted(foreground, None).save(OUT / "icon_android.png")
    loading = OUT / "icons" / "loading-animation.png"  # the path Flet's index.html shows
    loading.parent.mkdir(exist_ok=True)
    small = Image.open(OUT / "icon.png").resize((192, 192), Image.Resampling.LANCZOS)
    small.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(loading, optimize=True)
    web_icons(Image.open(OUT / "icon.png"), tilted(foreground, (*INDIGO, 255)))
    print(f"written: {OUT / 'icon.png'}, {OUT / 'icon_android.png'}, {loading}, web icons")


def web_icons(full: Image.Image, safe: Image.Image) -> None:
    """The icons of the web app's manifest and page, at the paths Flet's client names (the
    app's assets take the place of Flet's): a phone that installs the static site
    (tools/publish.py) shows Debrief's card, not Flet's logo. Maskable ones keep the card
    inside the safe zone a launcher's mask always shows."""
    sizes = {
        "icons/icon-192.png": (full, 192),
        "icons/icon-512.png": (full, 512),
        "icons/apple-touch-icon-192.png": (full, 192),
        "icons/icon-maskable-192.png": (safe, 192),
        "icons/icon-maskable-512.png": (safe, 512),
        "favicon.png": (full, 32),
    }
    for path, (image, size) in sizes.items():
        small = image.convert("RGB").resize((size, size), Image.Resampling.LANCZOS)
        small.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(OUT / path, optimize=True)


if __name__ == "__main__":
    main()
