"""New game: pick the game, the players in seating order, and the options; then play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import flet as ft

import scoring
from scoring.table import folded_name
from storage.store import GameAt

from . import buttons, games
from .hooks import memo, use_messages, use_value
from .i18n import Translator
from .notices import notices_panel
from .result import play_again
from .state import REFUSALS, AppState, use_screen
from .widgets import back_bar, body, chip, drawn_as, error_box, heading, icon_button, note


@dataclass(frozen=True)
class Draft:
    """The new game being set up."""

    game: str | None = None
    seats: tuple[str, ...] = ()
    born: dict[str, str] = field(default_factory=dict)
    options: scoring.Record = field(default_factory=dict)  # as the game's form set them

    def players(self) -> list[scoring.Record]:
        return [
            {"name": n, **({"born": self.born[n]} if self.born.get(n) else {})} for n in self.seats
        ]


@memo
@ft.component
def NewGameView(state: AppState) -> ft.View:
    use_screen(state, "/new")
    t = state.t
    draft, set_draft = use_value(Draft())
    new_name, set_new_name = use_value("")
    problems, set_problems = use_messages()
    views = games.load()
    view = views.get(draft.game or "")

    def pick_game(game: str | None) -> None:
        set_draft(replace(draft, game=game, options={}))

    def seat(name: str) -> None:
        if name in draft.seats:
            set_draft(replace(draft, seats=tuple(n for n in draft.seats if n != name)))
        else:
            born = {**draft.born}
            roster = {p["name"]: p for p in state.players()}
            known = roster.get(name)
            if known is not None and known["born"]:
                born[name] = known["born"]
            set_draft(replace(draft, seats=(*draft.seats, name), born=born))

    def add_new_player(typed: str) -> None:
        """Seat a new player; a name already in the roster (in any case or spacing) seats that
        player, and one that only looks like a player's name in another script ("Аnna" with
        a Cyrillic А beside Anna) is refused, naming them."""
        roster = [p["name"] for p in state.players(include_archived=True)]
        name = next((n for n in roster if folded_name(n) == folded_name(typed)), None)
        if name is None:
            try:
                name = state.add_player(typed)["name"]
            except REFUSALS as refused:
                set_problems(state.refusal(refused))
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
        if view is None:
            return
        options = view.options_of(draft.seats, draft.options)
        try:
            game_id = state.start_game(view.id, draft.players(), options)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        state.remember_birth_dates(draft.born, list(draft.seats))
        state.go(f"/game/{game_id}")

    def set_options(change: scoring.Record | Callable[[scoring.Record], scoring.Record]) -> None:
        def apply(current: Draft) -> Draft:
            options = change(current.options) if callable(change) else change
            return replace(current, options=options)

        set_draft(apply)

    def set_born(name: str, born: str) -> None:
        set_draft(lambda current: replace(current, born={**current.born, name: born}))

    controls: list[ft.Control] = []
    if draft.game is None:  # the usual table first: one tap to its next game
        controls += recent_tables(state, views)
    controls.append(heading(t("Which game?")))
    for game in views.values():
        if draft.game is not None and game.id != draft.game:
            continue  # once picked, only the chosen game stays (tap it to choose again)
        chosen = draft.game == game.id
        controls.append(
            ft.Card(
                bgcolor=ft.Colors.PRIMARY_CONTAINER if chosen else None,
                content=ft.ListTile(
                    leading=ft.Icon(game.icon),
                    title=ft.Text(game.title),
                    subtitle=ft.Text(
                        player_count(t, game.rules.min_players, game.rules.max_players)
                    ),
                    selected=chosen,
                    trailing=(
                        ft.Icon(ft.Icons.SWAP_HORIZ, semantics_label=t("Choose another game"))
                        if chosen
                        else None
                    ),
                    on_click=game_picker(pick_game, None if chosen else game.id),
                ),
            )
        )
    if view is not None:
        rules = view.rules
        controls += players_section(
            state, draft, view, new_name, set_new_name, seat, add_new_player, move
        )
        seated = len(draft.seats)
        enough = rules.min_players <= seated <= rules.max_players
        if enough:
            form = games.NewGameForm(
                t, draft.seats, draft.options, set_options, draft.born, set_born
            )
            controls += view.options_form(form)
        controls.append(error_box(problems))
        why_not = seating_problem(t, view.title, rules.min_players, rules.max_players, seated)
        if why_not is not None:
            controls.append(note(why_not))
        controls.append(
            buttons.FilledButton(
                t("Start {game}", game=view.title),
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
        controls=[body([*notices_panel(state), *controls])],
    )


def recent_tables(state: AppState, views: dict[str, games.GameView]) -> list[ft.Control]:
    """The tables played lately, each starting its next game at one tap (as Play again: the
    same seats and options, who begins moved one seat to the left)."""
    t = state.t
    found = state.recent_tables()
    if not found:
        return []
    controls: list[ft.Control] = [heading(t("Recent tables"))]
    for game in found:
        record = game.record
        view = views.get(str(record["game"]))
        if view is None:
            continue
        names = tuple(str(p["name"]) for p in record["players"] if isinstance(p, dict))
        options = record["options"] if isinstance(record["options"], dict) else {}
        said = view.options_said(t, names, options)
        controls.append(
            ft.Card(
                content=ft.ListTile(
                    leading=ft.Icon(view.icon),
                    title=ft.Text(", ".join(names)),
                    subtitle=ft.Text(f"{view.title} · {said}" if said else view.title),
                    trailing=ft.Icon(ft.Icons.PLAY_ARROW),
                    on_click=again(state, game),
                )
            )
        )
    return controls


def again(state: AppState, game: GameAt) -> Callable[[], None]:
    """The table's next game: the one waiting at the table if it is not over (Play again
    made it, say), else a new one."""
    game_id = str(game.record["meta"]["id"])
    if not game.result.finished and state.is_active(game_id):
        return lambda: state.go(f"/game/{game_id}")
    return lambda: play_again(state, game_id)


def game_picker(pick: Callable[[str | None], None], game: str | None) -> Callable[[], None]:
    return lambda: pick(game)


def player_count(t: Translator, low: int, high: int) -> str:
    if low == high:
        return t.plural("{count} player", "{count} players", low)
    return t("{low} to {high} players", low=low, high=high)


def seating_problem(t: Translator, game: str, low: int, high: int, seated: int) -> str | None:
    """Why Start cannot be tapped with `seated` players chosen; None where it can, or where
    nobody is chosen yet (the players' note above says what to do)."""
    if seated == 0 or low <= seated <= high:
        return None
    players = player_count(t, low, high)
    return t(
        "{game}: {players}. Chosen so far: {chosen}.", game=game, players=players, chosen=seated
    )


def players_section(
    state: AppState,
    draft: Draft,
    view: games.GameView,
    new_name: str,
    set_new_name: Callable[[str], None],
    seat: Callable[[str], None],
    add_new_player: Callable[[str], None],
    move: Callable[[str, int], None],
) -> list[ft.Control]:
    t = state.t
    rules = view.rules
    roster = [p["name"] for p in state.players()]

    def submit_name(event: ft.Event[ft.TextField]) -> None:
        # No focus() back to the field for the next name: that hand-over raced a tap on the
        # field and could leave it looking focused while Flutter no longer took its input.
        add_new_player(str(event.control.value))

    section: list[ft.Control] = [
        heading(t("Players")),
        note(
            t(
                "Tap players in seating order, clockwise. {game}: {players}.",
                game=view.title,
                players=player_count(t, rules.min_players, rules.max_players),
            )
        ),
        # The name field above the roster: a new player's chip appears below it, so the
        # field stays where the finger comes back to for the next name.
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
        ft.Row(
            wrap=True,
            controls=[
                chip(
                    label=ft.Text(name),
                    selected=name in draft.seats,
                    key=drawn_as(name, name in draft.seats),
                    on_select=lambda e, n=name: seat(n),
                )
                for name in roster
            ],
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
