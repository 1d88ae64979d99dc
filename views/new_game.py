"""New game: pick the game, the players in seating order, and the options; then play."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from typing import Any

import flet as ft

import scoring
from scoring import black_spy
from scoring.errors import N_
from scoring.table import name_key
from storage.errors import StorageError

from .i18n import Translator
from .state import REFUSALS, AppState
from .widgets import (
    GAME_ICONS,
    GAME_TITLES,
    back_bar,
    body,
    choice_chips,
    error_box,
    heading,
    icon_button,
    note,
    stepper,
)

VARIANT_TEXT = {
    "no-good-spies": (N_("No Good Spies"), N_("Coloured Spies count 0; a deal totals 80.")),
    "capture-or-release": (
        N_("Capture or Release"),
        N_("Whoever takes all 16 black cards may take −60 instead of giving 60."),
    ),
    "mole": (
        N_("The Mole"),
        N_("From deal 2, 3 cards per player are drafted, highest total first."),
    ),
    "calling-color": (
        N_("Calling Color"),
        N_("The dealer calls a colour; the player to the left leads."),
    ),
    "following-rank": (
        N_("Following Rank"),
        N_("You may also follow the rank of the card before yours."),
    ),
    "going-back": (
        N_("Going Back"),
        N_("Exceed the end value to end; exactly it, or half of it, is halved."),
    ),
}
HALVES_TEXT = {"exact": N_("Exact (37.5)"), "down": N_("Round down"), "up": N_("Round up")}
NATIONALITY_NAMES = {
    "italy": N_("Italy"),
    "england": N_("England"),
    "france": N_("France"),
    "spain": N_("Spain"),
    "belgium": N_("Belgium"),
    "germany": N_("Germany"),
}


@dataclass(frozen=True)
class Draft:
    """The new game being set up."""

    game: str | None = None
    seats: tuple[str, ...] = ()
    born: dict[str, str] = field(default_factory=dict)
    first: str | None = None  # first dealer / first player
    variants: frozenset[str] = frozenset()
    end_value: int | None = None
    halves: str = "exact"
    removed: str | None = None

    def options(self) -> dict[str, Any]:
        first = self.first if self.first in self.seats else (self.seats[0] if self.seats else "")
        if self.game == "black-spy":
            options: dict[str, Any] = {"first_dealer": first, "variants": sorted(self.variants)}
            if self.end_value is not None:
                options["end_value"] = self.end_value
            if "going-back" in self.variants:
                options["halves"] = self.halves
            return options
        if self.game == "kompromat":
            return {"first_player": first}
        if self.game == "spywhere" and len(self.seats) in (3, 4):
            return {"removed_nationality": self.removed or "belgium"}
        return {}

    def players(self) -> list[dict[str, Any]]:
        return [
            {"name": n, **({"born": self.born[n]} if self.born.get(n) else {})} for n in self.seats
        ]


@ft.component
def NewGameView(state: AppState) -> ft.View:
    t = state.t
    draft, set_draft = ft.use_state(Draft())
    new_name, set_new_name = ft.use_state("")
    problems, set_problems = ft.use_state(list[str]())
    rules = scoring.GAMES.get(draft.game or "")

    def pick_game(game: str | None) -> None:
        set_draft(replace(draft, game=game, first=None, end_value=None))

    def seat(name: str) -> None:
        if name in draft.seats:
            set_draft(replace(draft, seats=tuple(n for n in draft.seats if n != name)))
        else:
            born = {**draft.born}
            roster = {p["name"]: p for p in state.store.players()}
            if roster.get(name, {}).get("born"):
                born[name] = roster[name]["born"]
            set_draft(replace(draft, seats=(*draft.seats, name), born=born))

    def add_new_player(typed: str) -> None:
        """Seat a new player; a name already in the roster seats that player."""
        known = {name_key(p["name"]): p["name"] for p in state.store.players(include_archived=True)}
        name = known.get(name_key(typed))
        if name is None:
            try:
                name = state.store.add_player(typed)["name"]
            except StorageError as error:
                set_problems([t.problem(error)])
                return
        set_problems([])
        set_new_name("")
        if name not in draft.seats:
            set_draft(replace(draft, seats=(*draft.seats, name)))

    def move(name: str, step: int) -> None:
        seats = list(draft.seats)
        index = seats.index(name)
        other = (index + step) % len(seats)
        seats[index], seats[other] = seats[other], seats[index]
        set_draft(replace(draft, seats=tuple(seats)))

    def start() -> None:
        if draft.game is None:
            return
        try:
            game_id = state.start_game(draft.game, draft.players(), draft.options())
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        _remember_birth_dates(state, draft)
        state.go(f"/game/{game_id}")

    controls: list[ft.Control] = [heading(t("Which game?"))]
    for game, game_rules in scoring.GAMES.items():
        if draft.game is not None and game != draft.game:
            continue  # once picked, only the chosen game stays (tap it to choose again)
        controls.append(
            ft.Card(
                bgcolor=ft.Colors.PRIMARY_CONTAINER if draft.game == game else None,
                content=ft.ListTile(
                    leading=ft.Icon(GAME_ICONS[game]),
                    title=ft.Text(GAME_TITLES[game]),
                    subtitle=ft.Text(
                        player_count(t, game_rules.min_players, game_rules.max_players)
                    ),
                    selected=draft.game == game,
                    trailing=ft.Icon(ft.Icons.SWAP_HORIZ) if draft.game == game else None,
                    tooltip=t("Choose another game") if draft.game == game else None,
                    on_click=lambda _e, g=game: pick_game(None if draft.game == g else g),
                ),
            )
        )
    if rules is not None:
        controls += players_section(
            state, draft, rules, new_name, set_new_name, seat, add_new_player, move
        )
        enough = rules.min_players <= len(draft.seats) <= rules.max_players
        if enough:
            controls += options_section(t, draft, set_draft)
        controls.append(error_box(problems))
        controls.append(
            ft.FilledButton(
                t("Start {game}", game=GAME_TITLES[rules.id]),
                icon=ft.Icons.PLAY_ARROW,
                height=56,
                disabled=not enough,
                on_click=start,
            )
        )
    return ft.View(
        route="/new",
        appbar=back_bar(t("New game"), lambda: state.go("/"), t),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def player_count(t: Translator, low: int, high: int) -> str:
    if low == high:
        return t.plural("{count} player", "{count} players", low)
    return t("{low} to {high} players", low=low, high=high)


def players_section(
    state: AppState,
    draft: Draft,
    rules: Any,
    new_name: str,
    set_new_name: Any,
    seat: Any,
    add_new_player: Any,
    move: Any,
) -> list[ft.Control]:
    t = state.t
    roster = [p["name"] for p in state.store.players()]

    async def submit_name(event: Any) -> None:
        add_new_player(event.control.value)
        await event.control.focus()  # ready for the next name

    section: list[ft.Control] = [
        heading(t("Players")),
        note(
            t(
                "Tap players in seating order, clockwise. {game}: {players}.",
                game=GAME_TITLES[rules.id],
                players=player_count(t, rules.min_players, rules.max_players),
            )
        ),
        ft.Row(
            wrap=True,
            controls=[
                ft.Chip(
                    label=ft.Text(name),
                    selected=name in draft.seats,
                    on_select=lambda e, n=name: seat(n),
                    tooltip=t("Seat {name}", name=name),
                )
                for name in roster
            ],
        ),
        ft.Row(
            controls=[
                ft.TextField(
                    label=t("New player"),
                    value=new_name,
                    expand=True,
                    max_length=40,
                    on_change=lambda e: set_new_name(e.control.value),
                    on_submit=submit_name,
                ),
                icon_button(
                    ft.Icons.PERSON_ADD,
                    t("Add player"),
                    disabled=not new_name.strip(),
                    on_click=lambda: add_new_player(new_name),
                ),
            ]
        ),
    ]
    for index, name in enumerate(draft.seats):
        section.append(
            ft.Row(
                spacing=0,
                controls=[
                    ft.Text(f"{index + 1}.", width=28),
                    ft.Text(name, expand=True, weight=ft.FontWeight.BOLD),
                    icon_button(
                        ft.Icons.ARROW_UPWARD,
                        t("Move {name} up", name=name),
                        on_click=lambda _e, n=name: move(n, -1),
                    ),
                    icon_button(
                        ft.Icons.ARROW_DOWNWARD,
                        t("Move {name} down", name=name),
                        on_click=lambda _e, n=name: move(n, 1),
                    ),
                    icon_button(
                        ft.Icons.CLOSE,
                        t("Remove {name}", name=name),
                        on_click=lambda _e, n=name: seat(n),
                    ),
                ],
            )
        )
    return section


def options_section(t: Translator, draft: Draft, set_draft: Any) -> list[ft.Control]:
    seats = list(draft.seats)
    first = draft.first if draft.first in seats else seats[0]
    if draft.game == "black-spy":
        return black_spy_options(t, draft, set_draft, first)
    if draft.game == "kompromat":
        return [
            heading(t("Who starts?")),
            first_picker(t, seats, first, draft, set_draft, t("First player")),
        ]
    if draft.game == "spywhere" and len(seats) in (3, 4):
        removed = draft.removed or "belgium"
        return [
            heading(t("Nationality left out")),
            note(t("With 3 or 4 players the table removes one nationality.")),
            choice_chips(
                t("Removed nationality"),
                [(k, t(v)) for k, v in NATIONALITY_NAMES.items()],
                removed,
                lambda key: set_draft(replace(draft, removed=key)),
            ),
        ]
    return []


def first_picker(
    t: Translator, seats: list[str], first: str, draft: Draft, set_draft: Any, label: str
) -> ft.Control:
    return choice_chips(
        label,
        [(name, name) for name in seats],
        first,
        lambda name: set_draft(replace(draft, first=name)),
    )


def black_spy_options(t: Translator, draft: Draft, set_draft: Any, first: str) -> list[ft.Control]:
    seats = list(draft.seats)
    default_end = black_spy.default_end_value(len(seats))
    end_value = draft.end_value or default_end

    def toggle(variant: str) -> None:
        set_draft(replace(draft, variants=draft.variants ^ {variant}))

    controls: list[ft.Control] = [
        heading(t("Options")),
        first_picker(t, seats, first, draft, set_draft, t("First dealer")),
    ]
    for variant, (title, explanation) in VARIANT_TEXT.items():
        controls.append(
            ft.Checkbox(
                label=t(title),
                value=variant in draft.variants,
                on_change=lambda e, v=variant: toggle(v),
            )
        )
        controls.append(ft.Container(note(t(explanation)), padding=ft.Padding.only(left=40)))
    controls.append(
        stepper(
            t("End value"),
            end_value,
            10,
            1000,
            lambda step: set_draft(
                lambda current: replace(
                    current,
                    end_value=min(1000, max(10, (current.end_value or default_end) + 10 * step)),
                )
            ),
            t,
        )
    )
    controls.append(
        note(
            t(
                "The game ends at {value} ({players} players: {default} by the rules).",
                value=end_value,
                players=len(seats),
                default=default_end,
            )
        )
    )
    if "going-back" in draft.variants:
        controls.append(ft.Text(t("Halving")))
        controls.append(
            ft.SegmentedButton(
                selected=[draft.halves],
                segments=[ft.Segment(value=k, label=ft.Text(t(v))) for k, v in HALVES_TEXT.items()],
                on_change=lambda e: set_draft(replace(draft, halves=e.control.selected[0])),
            )
        )
    if "mole" in draft.variants:
        controls.append(
            ft.Text(t("Birth dates (for The Mole: on equal totals the youngest picks first)"))
        )
        for name in seats:
            controls.append(
                ft.TextField(
                    label=t("{name}: born (YYYY-MM-DD or year)", name=name),
                    value=draft.born.get(name, ""),
                    keyboard_type=ft.KeyboardType.DATETIME,
                    on_change=lambda e, n=name: set_draft(
                        replace(draft, born={**draft.born, n: e.control.value.strip()})
                    ),
                )
            )
    return controls


def _remember_birth_dates(state: AppState, draft: Draft) -> None:
    """Birth dates typed for a game also go to the roster, for next time."""
    for player in state.store.players():
        born = draft.born.get(player["name"])
        if (
            born
            and born != player["born"]
            and name_key(player["name"]) in map(name_key, draft.seats)
        ):
            with contextlib.suppress(StorageError):
                state.store.set_player_birth(player["id"], born)
