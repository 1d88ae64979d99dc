"""Where Debrief keeps its data."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "Debrief"


def data_directory(explicit: str | Path | None = None) -> Path:
    """`explicit`, else $DEBRIEF_DATA_DIR, else $FLET_APP_STORAGE_DATA (a phone's app-private
    folder), else the platform's user data folder. Not created here."""
    for candidate in (
        explicit,
        os.environ.get("DEBRIEF_DATA_DIR"),
        os.environ.get("FLET_APP_STORAGE_DATA"),
    ):
        if candidate:
            return Path(candidate).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
