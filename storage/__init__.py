"""Debrief's storage: the only code that touches disk (TinyDB behind a repository API)."""
