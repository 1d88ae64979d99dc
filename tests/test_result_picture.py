"""The result's picture: a capture Flutter's web renderer cut to the screen is known as one
(views/result.cut_to_the_screen), so it is drawn again whole (tests/test_e2e_share.py sees the
picture itself)."""

from __future__ import annotations

import struct
import zlib
from types import SimpleNamespace
from typing import Any

from views.result import cut_to_the_screen


def png_of(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )


def screen(width: float, height: float, ratio: float) -> Any:
    return SimpleNamespace(
        width=width, height=height, media=SimpleNamespace(device_pixel_ratio=ratio)
    )


def test_a_picture_the_size_of_the_screen_was_cut_to_it() -> None:
    assert cut_to_the_screen(png_of(400, 800), screen(400, 800, 1.0))  # a desktop's 3x card
    assert cut_to_the_screen(png_of(1236, 2748), screen(412, 916, 3.0))


def test_a_whole_card_is_not_taken_for_a_cut_one() -> None:
    assert not cut_to_the_screen(png_of(1140, 645), screen(400, 800, 1.0))  # 3x of 380 points
    assert not cut_to_the_screen(png_of(1140, 645), screen(412, 916, 3.0))
    assert not cut_to_the_screen(b"not a picture", screen(400, 800, 1.0))
    assert not cut_to_the_screen(png_of(400, 800), screen(None, None, 1.0))  # size not told yet
