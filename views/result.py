"""The end of a game, on every screen that shows it (the host's, each guest's, the history's):
the places with their ties, each player's score and what made it, how long the game took, and
what comes next: play again, share the result, put the game into the history, go home."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

import flet as ft

import scoring

from . import buttons
from .games import AtTable, view_of
from .i18n import Translator, minutes_between
from .safe import done_on_device, from_device
from .state import HOST, AppState
from .widgets import close, color_dot, note, qr_code


def game_over_panel(at: AtTable, on_its_page: bool = False) -> ft.Control:
    """The result of a finished game (nothing while it goes on): the winners, the places,
    what made each score, why where the scores do not say it (a loss by tokens), the game's
    length, and the actions. `on_its_page`: on the game's page in the history."""
    t, result = at.t, at.result
    if not result.finished:
        return ft.Container()
    card: list[ft.Control] = [
        ft.Text(
            headline(t, result.winners),
            theme_style=ft.TextThemeStyle.TITLE_LARGE,
            weight=ft.FontWeight.BOLD,
        ),
        places(at),
        *[ft.Text(line) for line in view_of(at.record["game"]).explained(t, result)],
    ]
    length = game_length(at)
    if length:  # (under a minute: a game entered after it was played)
        card.append(note(t("Played in {duration}", duration=t.duration(length))))
    card.append(note(game_and_day(t, at.record)))
    # The card as drawn on this screen is the picture to share (Flutter draws it, with the
    # fonts of the screen: umlauts and emoji as the players see them).
    colour = ft.Colors.TERTIARY_CONTAINER
    picture = ft.Screenshot(
        ft.Container(ft.Column(card, spacing=10), bgcolor=colour, padding=ft.Padding(12, 12, 12, 6))
    )
    return ft.Container(
        ft.Column(
            [
                picture,
                ft.Container(actions(at, picture, on_its_page), padding=ft.Padding(12, 6, 12, 12)),
            ]
        ),
        bgcolor=colour,
        border_radius=12,
        clip_behavior=ft.ClipBehavior.ANTI_ALIAS,  # the picture's corners inside the box's
    )


def headline(t: Translator, winners: list[str]) -> str:
    """ "Game over: Carla won!", the verb in the winners' number ("Carla & Dirk gewinnen")."""
    if not winners:
        return t("Game over: a draw.")
    names = " & ".join(winners)
    return t.plural("Game over: {names} won!", "Game over: {names} won!", len(winners), names=names)


def places(at: AtTable) -> ft.Control:
    """A line per player, best first: the place (shared on a tie, as the rules say), the
    name, the score (where the game has one) and what made it."""
    t, result = at.t, at.result
    view = view_of(at.record["game"])
    made = view.made_of(t, result)
    rows: list[ft.Control] = []
    for name in result.ranking:
        score = t.number(result.totals[name]) if view.totals_are_scores else None
        rows.append(
            place_row(t, result.places[name], name, score, made.get(name), at.color_of(name))
        )
    return ft.Column(rows, spacing=6)


def place_row(
    t: Translator, place: int, name: str, score: str | None, made: str | None, color: str
) -> ft.Control:
    """A player's line, "1.  Greta   120", with their colour beside the name and what made it
    under it; spoken as one label."""
    said = t("{place}. {name}", place=place, name=name)
    if score is not None:
        said = t("{place}. {name}: {score}", place=place, name=name, score=score)
    title = ft.TextThemeStyle.TITLE_MEDIUM
    top = ft.Row(
        [
            color_dot(color),
            ft.Text(name, expand=True, theme_style=title, weight=bold_if(place == 1)),
            *([ft.Text(score, theme_style=title, weight=bold_if(place == 1))] if score else []),
        ]
    )
    lines: list[ft.Control] = [top]
    if made:
        lines.append(ft.Text(made, size=13))
        said = f"{said}\n{made}"  # a line each, as Flutter joins a card's texts
    row = ft.Row(
        [
            ft.Container(ft.Text(t("{place}.", place=place), theme_style=title), width=32),
            ft.Column(lines, spacing=0, expand=True),
        ],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    return ft.Semantics(content=row, label=said, container=True, exclude_semantics=True)


def bold_if(bold: bool) -> ft.FontWeight | None:
    return ft.FontWeight.BOLD if bold else None


def game_length(at: AtTable) -> int | None:
    """Minutes from the start to the end (into the history, else the last change)."""
    meta = at.record.get("meta") or {}
    started = meta.get("started")
    ended = at.app.ended_at(at.game_id)
    return minutes_between(started if isinstance(started, str) else None, ended)


def actions(at: AtTable, picture: ft.Screenshot, on_its_page: bool) -> ft.Control:
    """Share (the text, or the result as a picture) for everyone; the host also plays again,
    finishes (into the history) and goes home: a guest's phone shows this game only."""
    state, t, game_id = at.app, at.t, at.game_id
    text = result_text(t, at.record, at.result)
    share: list[ft.Control] = [
        buttons.OutlinedButton(
            t("Share the result"),
            icon=ft.Icons.SHARE,
            height=48,
            on_click=result_sharer(state, text),
        ),
        buttons.OutlinedButton(
            t("Share as picture"),
            icon=ft.Icons.IMAGE,
            height=48,
            on_click=picture_sharer(picture, picture_name(at.record), text),
        ),
    ]
    link = state.bgstats_link(game_id)
    if link is not None:
        share.append(
            buttons.OutlinedButton(
                t("Log in BG Stats"),
                icon=ft.Icons.QR_CODE_2,
                height=48,
                on_click=lambda: ft.context.page.show_dialog(bgstats_dialog(t, link)),
            )
        )
    if state.role != HOST:
        return ft.Row(share, wrap=True, spacing=8, run_spacing=8)
    hosts: list[ft.Control] = [
        buttons.FilledButton(
            t("Play again"),
            icon=ft.Icons.REPLAY,
            height=48,
            on_click=lambda: play_again(state, game_id),
        ),
        *share,
    ]
    if state.is_active(game_id):
        hosts.append(
            buttons.OutlinedButton(  # Play again puts it into the history too
                t("Finish and save to history"),
                icon=ft.Icons.CHECK,
                height=48,
                on_click=lambda: finish(state, game_id),
            )
        )
    hosts.append(
        buttons.TextButton(t("Home"), icon=ft.Icons.HOME, height=48, on_click=lambda: state.go("/"))
    )
    column: list[ft.Control] = [ft.Row(hosts, wrap=True, spacing=8, run_spacing=8)]
    if not state.is_active(game_id) and not on_its_page:  # (its page says so already)
        column.append(note(t("This game is in the history.")))
    return ft.Column(column, spacing=6)


def result_text(t: Translator, record: scoring.GameRecord, result: scoring.Replay) -> str:
    """The result as a message to send: the game and day, who won (and why, where the scores
    do not say it), and the places with the scores: "Black Spy, 14 Nov 2026: Game over: Greta
    won! 1. Greta 23, 2. Ben 63, …" (SPY, which has no scores: "1. Greta, 2. Ben, …")."""
    view = view_of(str(record["game"]))
    when = started_on(t, record)
    said = " ".join([headline(t, result.winners), *view.explained(t, result)])
    places = ", ".join(
        f"{result.places[name]}. {name}"
        + (f" {t.number(result.totals[name])}" if view.totals_are_scores else "")
        for name in result.ranking
    )
    return f"{view.title}, {when}: {said} {places}" if when else f"{view.title}: {said} {places}"


def started_on(t: Translator, record: scoring.GameRecord) -> str:
    """The day the game began ("14 Nov 2026"), or "" when that is not known."""
    started = str(record.get("meta", {}).get("started") or "")
    try:
        return t.day(dt.datetime.fromisoformat(started))
    except ValueError:
        return ""


def game_and_day(t: Translator, record: scoring.GameRecord) -> str:
    """What the picture of a result says it is: "Black Spy · 14 Nov 2026 · Debrief"."""
    parts = [view_of(str(record["game"])).title, started_on(t, record), "Debrief"]
    return " · ".join(part for part in parts if part)


def picture_name(record: scoring.GameRecord) -> str:
    """The picture's file name: "debrief-black-spy-2026-11-14.png"."""
    started = str(record.get("meta", {}).get("started") or "")[:10]
    return f"debrief-{record['game']}{'-' + started if started else ''}.png"


# How long after the tap the picture is taken: once the button's ripple is over. Flutter's web
# engine draws the screen and a picture on one surface, and a frame of the screen drawn while
# the picture is (the ripple's) leaves the picture the size of the screen, the card in its
# corner (flutter/flutter#182476; 3 pictures in 8 here with the ripple, none of 16 after it).
STILL = ft.Duration(milliseconds=600)
# Pixels a point: sharp on any phone it is sent to, whatever the sharer's screen (a
# desktop's has 1). A float: Flet's client refuses an int here.
PICTURE_SCALE = 3.0


def picture_sharer(picture: ft.Screenshot, name: str, text: str) -> Callable[[], Awaitable[None]]:
    """The result card as a PNG: sent with the phone's share sheet in the app on a phone;
    elsewhere (a desktop; any browser, where sharing a file needs HTTPS, which a table on the
    local network is not) saved as a file: a download in a browser."""

    async def share() -> None:
        page = ft.context.page
        png = await captured(picture, PICTURE_SCALE)
        if png is not None and page is not None and cut_to_the_screen(png, page):
            # Flutter's web renderer at times draws a capture on the screen's own canvas,
            # which cuts it to the screen's pixels (a 400 x 800 corner of a 3x picture on a
            # desktop's screen): drawn again as many pixels a point as the screen has, which
            # it holds whole.
            png = await captured(picture, screen_ratio(page))
        if png is None:  # the tab went, or its client sent no picture: nothing to share
            return
        if in_a_phones_app(page):
            shared = ft.ShareFile.from_bytes(png, mime_type="image/png", name=name)
            await from_device(ft.Share().share_files([shared], text=text), "sharing a picture")
            return
        await from_device(ft.FilePicker().save_file(file_name=name, src_bytes=png), "a picture")

    return share


async def captured(picture: ft.Screenshot, ratio: float) -> bytes | None:
    """The picture as a PNG's bytes; None when the device gave none (what a client answers is
    its own: anything but bytes is none)."""
    png = await from_device(picture.capture(pixel_ratio=ratio, delay=STILL), "a picture")
    return png if isinstance(png, bytes) and png else None


def cut_to_the_screen(png: bytes, page: ft.Page) -> bool:
    """Whether a PNG is exactly the screen's size in device pixels (a capture the screen's
    canvas cut; the card itself is narrower than the screen)."""
    size = picture_size(png)
    ratio, screen = screen_ratio(page), (page.width, page.height)
    if size is None or screen[0] is None or screen[1] is None:  # nothing to compare with
        return False
    return size == (round(screen[0] * ratio), round(screen[1] * ratio))


def picture_size(png: bytes) -> tuple[int, int] | None:
    """A PNG's width and height in pixels (its IHDR chunk's first fields), if it is one."""
    if png[12:16] != b"IHDR":
        return None
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def screen_ratio(page: ft.Page) -> float:
    """The screen's device pixels a point (a float: Flet's client refuses an int)."""
    return float(page.media.device_pixel_ratio or 1.0)


def result_sharer(state: AppState, text: str) -> Callable[[], Awaitable[None]]:
    """Send the result with the phone's share sheet; elsewhere (a desktop, any browser: the
    web's share sheet needs HTTPS, which a table on the local network is not) copy it. Decided
    by platform, not by trying."""

    async def share() -> None:
        if in_a_phones_app(ft.context.page):
            await from_device(ft.Share().share_text(text), "sharing the result")
            return
        if await done_on_device(ft.Clipboard().set(text), "copying the result"):
            state.say(state.t("Copied: {result}", result=text))

    return share


def bgstats_dialog(t: Translator, link: str) -> ft.AlertDialog:
    """The game as a play for BG Stats: a code another phone at the table scans, or BG Stats
    opened on this device (BG Stats shows the play before it logs it)."""
    code = qr_code(link, "l", scale=8)  # sharp at 3 px a point

    async def open_here() -> None:
        close(dialog)
        launched = ft.UrlLauncher().launch_url(link, mode=ft.LaunchMode.EXTERNAL_APPLICATION)
        await from_device(launched, "opening BG Stats")

    dialog: ft.AlertDialog = ft.AlertDialog(
        title=ft.Text(t("Log in BG Stats")),
        content=ft.Column(
            tight=True,
            scroll=ft.ScrollMode.AUTO,
            spacing=8,
            controls=[
                note(
                    t(
                        "Scan the code with the phone that has BG Stats, or open BG Stats on "
                        "this device. BG Stats shows the play before it logs it; logging this "
                        "game again updates the same play."
                    )
                ),
                ft.Image(
                    src=code, width=300, height=300, semantics_label=t("Code of the BG Stats link")
                ),
            ],
        ),
        actions=[
            buttons.TextButton(t("Close"), on_click=lambda: close(dialog)),
            buttons.FilledButton(t("Open BG Stats here"), on_click=open_here),
        ],
    )
    return dialog


def in_a_phones_app(page: ft.Page) -> bool:
    """Whether the app runs as a phone's own app, which has the system's share sheet (a
    phone's browser has one only over HTTPS, which a table on the local network is not)."""
    return page.platform in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS) and not page.web


def finish(state: AppState, game_id: str) -> None:
    """Put the game into the history and go home (unless that could not be saved)."""
    if state.tried(lambda: state.finish(game_id)):
        state.go("/")
        state.say(state.t("Saved to the history."))


def play_again(state: AppState, game_id: str) -> None:
    """The same table's next game, at the table (`AppState.play_again`)."""
    new_id = state.attempt(lambda: state.play_again(game_id))
    if new_id is not None:
        state.go(f"/game/{new_id}")
        state.say(state.t("Next game: the same players; the one on the left begins."))
