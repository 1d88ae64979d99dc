"""Black Spy at the table: the scoresheet, who deals next, and entering a deal."""

from __future__ import annotations

import copy
from typing import Any

import flet as ft

import scoring
from scoring.black_spy import BLACK_LOW, BLACK_SPIES, COLORED_SPIES, HIGH_POINTS
from scoring.errors import N_

from .frame import (
    correction_banner,
    entry_exits,
    game_bar,
    game_over_panel,
    problems_text,
    snack,
)
from .i18n import Translator
from .new_game import VARIANT_TEXT
from .state import REFUSALS, AppState
from .widgets import body, error_box, heading, info_box, note, stepper

NEW = -1  # editing index for a deal not saved yet
MOON_ICON = ft.Icons.NIGHTLIGHT_ROUND
LEADER_ICON = ft.Icons.STAR
PASS_ICONS = {
    "left": ft.Icons.ARROW_BACK,
    "right": ft.Icons.ARROW_FORWARD,
    "across": ft.Icons.SWAP_VERT,
}
PASS_TEXT = {
    "left": N_("Pass 3 cards to the left"),
    "right": N_("Pass 3 cards to the right"),
    "across": N_("Pass 3 cards across"),
}


@ft.component
def BlackSpyScreen(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    result: scoring.Replay,
    fix_round: int | None = None,
    key: str | None = None,
) -> ft.View:
    """`fix_round`: the game was stored before a rule it breaks; only that deal's correction
    is open (`result` is the game up to it)."""
    # None: the sheet; NEW or a deal's index: entry
    editing, set_editing = ft.use_state(fix_round)
    draft, set_draft = ft.use_state(
        lambda: None if fix_round is None else copy.deepcopy(record["rounds"][fix_round])
    )
    auto, set_auto = ft.use_state(None)  # the player whose pile is "the rest"
    names = list(result.table.names)

    def before(index: int) -> dict[str, Any]:
        """The record as it was before deal `index` (what "the rest" is worked out from)."""
        return {**record, "rounds": record["rounds"][:index]}

    def fill(new_draft: dict[str, Any], auto_player: str | None, index: int) -> dict[str, Any]:
        if auto_player is None:
            return new_draft
        return scoring.complete_round(before(index), new_draft, auto_player)

    def open_entry(index: int) -> None:
        if index == NEW:
            auto_player = names[-1]
            set_draft(fill(scoring.blank_round(record), auto_player, len(record["rounds"])))
        else:
            auto_player = None
            set_draft(copy.deepcopy(record["rounds"][index]))
        set_auto(auto_player)
        set_editing(index)
        state.message = None

    if editing is not None and draft is not None:
        index = len(record["rounds"]) if editing == NEW else editing
        leave, saved = entry_exits(state, fix_round, lambda: set_editing(None))
        controls = [
            *correction_banner(state.t, fix_round),
            DealEntry(
                state,
                game_id,
                record,
                result,
                draft,
                editing,
                auto,
                lambda modify, a: (
                    set_auto(a),
                    set_draft(lambda current: fill(modify(copy.deepcopy(current)), a, index)),
                ),
                leave,
                saved,
            ),
        ]
    else:
        controls = sheet(state, game_id, record, result, open_entry)
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, record),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


# --- the sheet ---------------------------------------------------------------------------------


def sheet(
    state: AppState, game_id: str, record: dict[str, Any], result: scoring.Replay, open_entry: Any
) -> list[ft.Control]:
    t = state.t
    standings = result.standings()
    controls: list[ft.Control] = [*snack(state), game_over_panel(state, game_id, result)]
    if not result.finished:
        controls.append(next_deal_panel(t, standings, record))
        controls.append(
            ft.FilledButton(
                t("Enter deal {number}", number=standings["next_deal"]["number"]),
                icon=ft.Icons.EDIT_NOTE,
                height=56,
                on_click=lambda: open_entry(NEW),
            )
        )
    controls.append(scoresheet(t, record, result, standings, open_entry))
    if record["rounds"]:
        controls.append(note(t("Tap a deal to correct or delete it.")))
    return controls


def next_deal_panel(t: Translator, standings: dict[str, Any], record: dict[str, Any]) -> ft.Control:
    deal = standings["next_deal"]
    direction = deal["pass"]
    variants = record["options"].get("variants", [])
    lines: list[ft.Control] = [
        ft.Text(
            t(
                "Deal {number}: {dealer} deals {cards} cards each",
                number=deal["number"],
                dealer=deal["dealer"],
                cards=deal["cards_each"],
            ),
            weight=ft.FontWeight.BOLD,
        ),
        ft.Row([ft.Icon(PASS_ICONS[direction]), ft.Text(t(PASS_TEXT[direction]))]),
    ]
    if "mole_draft_order" in deal:
        lines.append(
            ft.Text(
                t.plural(
                    "The Mole: {count} card set aside first. Draft: {order}",
                    "The Mole: {count} cards set aside first. Draft: {order}",
                    deal["mole_cards"],
                    order=" → ".join(deal["mole_draft_order"]),
                )
            )
        )
    if "caller" in deal:
        lines.append(
            ft.Text(
                t(
                    "{caller} calls a colour after the pass; {leader} leads it",
                    caller=deal["caller"],
                    leader=deal["leader"],
                )
            )
        )
    else:
        lines.append(note(t("The red 1 leads the first trick (no black lead).")))
    end = standings["end_value"]
    if "going-back" in variants:
        lines.append(
            note(
                t(
                    "Going Back: exceed {end} to end; exactly {end} or {half} is halved.",
                    end=end,
                    half=t.number(end / 2),
                )
            )
        )
    else:
        lines.append(note(t("The game ends at {end}; lowest total wins.", end=end)))
    reminders = [t(VARIANT_TEXT[v][0]) for v in variants if v not in ("going-back",)]
    if reminders:
        lines.append(note(t("Variants: {names}", names=", ".join(reminders))))
    if "following-rank" in variants:
        following_rank = VARIANT_TEXT["following-rank"][1]
        lines.append(note(t(following_rank)))
    return info_box(lines)


def scoresheet(
    t: Translator,
    record: dict[str, Any],
    result: scoring.Replay,
    standings: dict[str, Any],
    open_entry: Any,
) -> ft.Control:
    """Like the paper pad: a row per deal, a column per player, totals and the distance to the
    end; the leader is marked."""
    names = list(result.table.names)
    end = standings["end_value"]
    leaders = set(result.leaders)

    def cell(
        text: str, icon: ft.IconData | None = None, bold: bool = False, spoken: str | None = None
    ) -> ft.Control:
        parts: list[ft.Control] = [
            ft.Text(
                text,
                semantics_label=spoken,
                weight=ft.FontWeight.BOLD if bold else None,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
        ]
        if icon is not None:
            parts.insert(0, ft.Icon(icon, size=14))
        return ft.Row(parts, spacing=2, alignment=ft.MainAxisAlignment.END, expand=1)

    def row(
        label: str, cells: list[ft.Control], on_click: Any = None, spoken: str | None = None
    ) -> ft.Control:
        return ft.Container(
            content=ft.Row(
                [
                    ft.Text(label, width=48, weight=ft.FontWeight.BOLD, semantics_label=spoken),
                    *cells,
                ],
                spacing=4,
            ),
            padding=ft.Padding.symmetric(vertical=10, horizontal=4),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            on_click=on_click,
            ink=on_click is not None,
        )

    rows: list[ft.Control] = [row(t("Deal"), [cell(n, bold=True) for n in names])]
    for index, deal in enumerate(standings["deals"]):
        cells = []
        for name in names:
            text = t.number(deal["points"][name])
            if name in deal["halved"]:
                text += " ½"
            cells.append(cell(text, MOON_ICON if deal["moon"] == name else None))
        rows.append(
            row(
                str(index + 1),
                cells,
                on_click=lambda _e, i=index: open_entry(i),
                spoken=t("Edit deal {number}", number=index + 1),
            )
        )
    totals = standings["totals"]
    rows.append(
        row(
            t("Total"),
            [
                cell(
                    t.number(totals[n]),
                    LEADER_ICON if n in leaders else None,
                    bold=True,
                    spoken=t("{name}: total {total}", name=n, total=t.number(totals[n])),
                )
                for n in names
            ],
        )
    )
    rows.append(row(t("To end"), [cell(t.number(end - totals[n])) for n in names]))
    legend = ft.Row(
        wrap=True,
        spacing=8,
        controls=[
            note(t("½ halved (Going Back)")),
            ft.Row([ft.Icon(MOON_ICON, size=14), note(t("took all 16 black cards"))], spacing=2),
            ft.Row([ft.Icon(LEADER_ICON, size=14), note(t("leading"))], spacing=2),
        ],
    )
    return ft.Column([heading(t("Scoresheet")), ft.Column(rows, spacing=0), legend], spacing=6)


# --- entering a deal ---------------------------------------------------------------------------


@ft.component
def DealEntry(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    result: scoring.Replay,
    draft: dict[str, Any],
    editing: int,
    auto: str | None,
    change: Any,
    close: Any,
    saved: Any,
) -> ft.Control:
    t = state.t
    names = list(result.table.names)
    index = len(record["rounds"]) if editing == NEW else editing
    problems, set_problems = ft.use_state(list[str]())
    errors = scoring.check_round(record, draft, None if editing == NEW else editing)
    points = scoring.draft_points({**record, "rounds": record["rounds"][:index]}, draft)
    variants = record["options"].get("variants", [])

    # Each change is applied to the draft as it is when the change arrives (two quick taps on
    # "plus" count twice), then the automatic player's pile is worked out again.
    def step(name: str, key: str, delta: int, high: int) -> None:
        def modify(current: dict[str, Any]) -> dict[str, Any]:
            pile = current["cards"][name]
            pile[key] = max(0, min(high, pile[key] + delta))
            return current

        change(modify, auto if auto != name else None)

    def toggle_high(name: str, rank: int) -> None:
        def modify(current: dict[str, Any]) -> dict[str, Any]:
            mine = current["cards"][name]["black_high"]
            if rank in mine:
                mine.remove(rank)
                return current
            for other in current["cards"].values():  # a card is taken by one player: move it
                if rank in other["black_high"]:
                    other["black_high"].remove(rank)
            mine.append(rank)
            mine.sort()
            return current

        change(modify, auto if auto != name else None)

    def set_moon_choice(choice: str) -> None:
        change(lambda current: {**current, "moon_choice": choice}, auto)

    def save() -> None:
        try:
            result_after = state.save_round(game_id, None if editing == NEW else editing, draft)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        state.say(deal_saved_message(t, result_after, index))
        saved()

    def delete() -> None:
        try:
            state.delete_round(game_id, editing)
        except REFUSALS as refused:
            set_problems(state.refusal(refused))
            return
        state.say(t("Deal {number} deleted", number=editing + 1))
        saved()

    title = (
        t("Deal {number}", number=index + 1)
        if editing == NEW
        else t("Correct deal {number}", number=index + 1)
    )
    controls: list[ft.Control] = [
        heading(title),
        note(t("Count each player's tricks. The last one is filled in with what is left.")),
    ]
    for name in names:
        controls.append(
            pile_card(
                t,
                name,
                draft["cards"][name],
                points.get(name),
                auto == name,
                lambda n=name: change(lambda current: current, n),
                step,
                toggle_high,
                variants,
            )
        )
    moon_taker = next((n for n in names if is_moon(draft["cards"][n])), None)
    if moon_taker and "capture-or-release" in variants:
        controls.append(
            info_box(
                [
                    ft.Text(
                        t("{name} took all 16 black cards! Their choice:", name=moon_taker),
                        weight=ft.FontWeight.BOLD,
                    ),
                    ft.SegmentedButton(
                        selected=[draft["moon_choice"]] if draft.get("moon_choice") else [],
                        allow_empty_selection=True,
                        segments=[
                            ft.Segment(value="give", label=ft.Text(t("Give 60 to everyone else"))),
                            ft.Segment(
                                value="release",
                                label=ft.Text(t("Release: −60 for {name}", name=moon_taker)),
                            ),
                        ],
                        on_change=lambda e: (
                            set_moon_choice(e.control.selected[0]) if e.control.selected else None
                        ),
                    ),
                ],
                ft.Colors.TERTIARY_CONTAINER,
            )
        )
    elif moon_taker:
        controls.append(
            info_box(
                [
                    ft.Text(
                        t(
                            "{name} took all 16 black cards: 0 for them, 60 for everyone else.",
                            name=moon_taker,
                        )
                    )
                ],
                ft.Colors.TERTIARY_CONTAINER,
            )
        )
    messages = problems_text(state, errors) + problems
    controls.append(error_box(messages))
    buttons: list[ft.Control] = [
        ft.FilledButton(
            t("Save deal"), icon=ft.Icons.SAVE, height=52, disabled=bool(errors), on_click=save
        ),
        ft.OutlinedButton(t("Cancel"), height=52, on_click=lambda: close()),
    ]
    if editing != NEW:
        buttons.append(
            ft.TextButton(t("Delete deal"), icon=ft.Icons.DELETE_OUTLINE, on_click=delete)
        )
    controls.append(ft.Row(buttons, wrap=True))
    return ft.Column(controls, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def is_moon(pile: dict[str, Any]) -> bool:
    return (
        pile.get("black_spies") == BLACK_SPIES
        and pile.get("black_low") == BLACK_LOW
        and len(pile.get("black_high", [])) == len(HIGH_POINTS)
    )


def pile_card(
    t: Translator,
    name: str,
    pile: dict[str, Any],
    points: Any,
    automatic: bool,
    make_auto: Any,
    step: Any,
    toggle_high: Any,
    variants: list[str],
) -> ft.Control:
    header = [
        ft.Text(name, weight=ft.FontWeight.BOLD, size=16, expand=True),
        ft.Text(
            t("{points} points", points=t.number(points)) if points is not None else "",
            weight=ft.FontWeight.BOLD,
        ),
    ]
    if automatic:
        sub = note(t("Filled in automatically: what the others did not take."))
    else:
        sub = ft.TextButton(t("Fill {name} automatically", name=name), on_click=lambda: make_auto())
    enabled = not automatic
    return ft.Card(
        content=ft.Container(
            padding=10,
            content=ft.Column(
                spacing=2,
                controls=[
                    ft.Row(header),
                    sub,
                    stepper(
                        t("{name}: black Spies", name=name),
                        pile["black_spies"],
                        0,
                        BLACK_SPIES,
                        lambda d: step(name, "black_spies", d, BLACK_SPIES),
                        t,
                        enabled,
                        t("Black Spies (10)"),
                    ),
                    stepper(
                        t("{name}: black 1–6", name=name),
                        pile["black_low"],
                        0,
                        BLACK_LOW,
                        lambda d: step(name, "black_low", d, BLACK_LOW),
                        t,
                        enabled,
                        t("Black 1–6 (1 each)"),
                    ),
                    ft.Row(
                        wrap=True,
                        spacing=6,
                        controls=[
                            ft.Text(t("Black"), width=44),
                            *[
                                ft.Chip(
                                    label=ft.Text(
                                        str(rank),
                                        semantics_label=t(
                                            "{name}: black {rank}", name=name, rank=rank
                                        ),
                                    ),
                                    selected=rank in pile["black_high"],
                                    disabled=not enabled,
                                    on_select=lambda e, r=rank: toggle_high(name, r),
                                )
                                for rank in HIGH_POINTS
                            ],
                        ],
                    ),
                    stepper(
                        t("{name}: coloured Spies", name=name),
                        pile["colored_spies"],
                        0,
                        COLORED_SPIES,
                        lambda d: step(name, "colored_spies", d, COLORED_SPIES),
                        t,
                        enabled,
                        t("Coloured Spies (−5)")
                        if "no-good-spies" not in variants
                        else t("Coloured Spies (0)"),
                    ),
                ],
            ),
        )
    )


def deal_saved_message(t: Translator, result: scoring.Replay, index: int) -> str:
    deal = result.standings()["deals"][index]
    parts = [t("Deal {number} saved.", number=index + 1)]
    for name in deal["halved"]:
        parts.append(
            t(
                "{name} hit the value exactly and is halved to {total}.",
                name=name,
                total=t.number(result.totals[name]),
            )
        )
    if result.finished:
        parts.append(t("Game over: {names} won!", names=" & ".join(result.winners)))
    return " ".join(parts)
