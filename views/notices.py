"""What was found wrong with the data (damage kept aside, games it took out of the history),
said on whichever screen the host is on until it is read: found at start, or later, when an
archive file is first read (`Store.notices`)."""

from __future__ import annotations

import datetime as dt

import flet as ft

from storage.errors import StartupNotice
from storage.summaries import Summary

from . import buttons
from .games import view_of
from .i18n import Translator
from .state import HOST, AppState
from .widgets import info_box


def sentence(text: str) -> str:
    """A message as a sentence: capital first letter, full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def game_line(t: Translator, summary: Summary) -> str:
    """A game as a player knows it: "SPY · 1 Nov 2026 · Anna, Ben, Carla"."""
    try:
        day = t.day(dt.datetime.fromisoformat(summary.started or ""))
    except ValueError:
        day = "?"
    return f"{view_of(summary.game).title} · {day} · {', '.join(summary.players)}"


def notice_lines(t: Translator, notice: StartupNotice) -> list[ft.Control]:
    """The notice, then each game it is about, a line each."""
    games = notice.params.get("games")
    named = (
        [game_line(t, s) for s in games if isinstance(s, Summary)]
        if isinstance(games, tuple)
        else []
    )
    return [
        ft.Text(sentence(t.problem(notice))),
        *[ft.Text(f"• {line}", weight=ft.FontWeight.BOLD) for line in named],
    ]


def notices_panel(state: AppState) -> list[ft.Control]:
    """The host's unread notices with *Understood*; nothing for a guest, or when all is read."""
    if state.role != HOST:
        return []
    notices = state.notices
    if not notices:
        return []
    t = state.t
    lines = [line for notice in notices for line in notice_lines(t, notice)]
    understood = buttons.TextButton(t("Understood"), on_click=lambda: state.dismiss_notices())
    return [info_box([*lines, understood], ft.Colors.ERROR_CONTAINER)]
