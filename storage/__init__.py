"""Debrief's storage: the only code that touches disk (TinyDB behind a repository API)."""

from .errors import StorageError
from .paths import data_directory
from .store import Store

__all__ = ["StorageError", "Store", "data_directory"]
