"""Kompromat at the table: tokens always in sight, six rounds of four missions, and a keypad of
the real equipment cards for entering what each player played."""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

import flet as ft

import scoring
from scoring import kompromat as rules

from .frame import (
    correction_banner,
    entry_exits,
    game_bar,
    game_over_panel,
    problems_text,
    snack,
)
from .i18n import Translator
from .state import REFUSALS, AppState
from .widgets import body, choice_chips, error_box, heading, info_box, note

NEW = -1
MISSION_PATH = re.compile(r"\.missions\[(\d)\]")
KEYPAD = ["0.5", "1/11", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
WARN_AT = rules.TOKEN_LIMIT - 2


def card_label(t: Translator, card: dict[str, Any] | None) -> str:
    if not card:
        return t("(choose the card)")
    if card["kind"] == "target":
        return t("Target ({vp} VP)", vp=card["vp"])
    if card["kind"] == "item":
        return t(str(rules.ITEM_NAMES[card["item"]]))
    return t("Code") if card["kind"] == "code" else t("Document")


def card_key(card: dict[str, Any]) -> str:
    return f"{card['kind']}:{card.get('vp') or card.get('item') or ''}"


def key_card(key: str) -> dict[str, Any]:
    kind, _, detail = key.partition(":")
    if kind == "target":
        return {"kind": "target", "vp": int(detail)}
    if kind == "item":
        return {"kind": "item", "item": detail}
    return {"kind": kind}


def as_json_card(label: str) -> Any:
    return label if label == rules.ACE else (0.5 if label == "0.5" else int(label))


def as_label(card: Any) -> str:
    return "0.5" if card == 0.5 else str(card)


@ft.component
def KompromatScreen(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    result: scoring.Replay,
    fix_round: int | None = None,
    key: str | None = None,
) -> ft.View:
    """`fix_round`: the game was stored before a rule it breaks; only that round's
    correction is open (`result` is the game up to it)."""
    t = state.t
    standings = result.standings()
    editing, set_editing = ft.use_state(fix_round)
    draft, set_draft = ft.use_state(
        lambda: None if fix_round is None else copy.deepcopy(record["rounds"][fix_round])
    )

    def open_entry(index: int) -> None:
        if index == NEW:
            set_draft(scoring.blank_round(record))
        else:
            set_draft(copy.deepcopy(record["rounds"][index]))
        set_editing(index)
        state.message = None

    controls: list[ft.Control] = [*snack(state), *correction_banner(t, fix_round)]
    controls.append(tokens_panel(t, standings))
    if editing is not None and draft is not None:
        leave, saved = entry_exits(state, fix_round, lambda: set_editing(None))
        controls.append(RoundEntry(state, game_id, record, draft, set_draft, editing, leave, saved))
    else:
        controls.append(game_over_panel(state, game_id, result, final_result(t, result, standings)))
        if not result.finished:
            nxt = standings["next_round"]
            controls.append(
                ft.FilledButton(
                    t(
                        "Enter round {number} of 6 ({name} starts)",
                        number=nxt["number"],
                        name=nxt["first_player"],
                    ),
                    icon=ft.Icons.EDIT_NOTE,
                    height=56,
                    on_click=lambda: open_entry(NEW),
                )
            )
        controls.append(rounds_list(t, record, standings, open_entry))
    return ft.View(
        route=f"/game/{game_id}",
        appbar=game_bar(state, game_id, record),
        scroll=ft.ScrollMode.AUTO,
        controls=[body(controls)],
    )


def tokens_panel(t: Translator, standings: dict[str, Any]) -> ft.Control:
    cells: list[ft.Control] = []
    for name, tokens in standings["tokens"].items():
        danger = tokens >= WARN_AT
        unused = standings["items"][name]["unused"]
        lines: list[ft.Control] = [
            ft.Text(name, weight=ft.FontWeight.BOLD),
            ft.Text(
                t.plural("{count} token", "{count} tokens", tokens),
                size=18,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ERROR if danger else None,
            ),
            ft.Text(
                t("{points} VP", points=t.number(standings["totals"][name])),
                semantics_label=t(
                    "{name}: {points} VP", name=name, points=t.number(standings["totals"][name])
                ),
            ),
        ]
        if danger and tokens < rules.TOKEN_LIMIT:
            lines.append(
                ft.Text(
                    t.plural(
                        "{count} more and {name} loses!",
                        "{count} more and {name} loses!",
                        rules.TOKEN_LIMIT - tokens,
                        name=name,
                    ),
                    color=ft.Colors.ERROR,
                    size=12,
                )
            )
        if unused:
            lines.append(
                note(
                    t(
                        "Items: {names}",
                        names=", ".join(t(str(rules.ITEM_NAMES[i])) for i in unused),
                    )
                )
            )
        cells.append(
            ft.Container(
                ft.Column(lines, spacing=2),
                expand=1,
                padding=10,
                border_radius=12,
                bgcolor=ft.Colors.ERROR_CONTAINER if danger else ft.Colors.SECONDARY_CONTAINER,
            )
        )
    return ft.Row(cells, vertical_alignment=ft.CrossAxisAlignment.START)


def final_result(
    t: Translator, result: scoring.Replay, standings: dict[str, Any]
) -> list[ft.Control]:
    lines: list[ft.Control] = []
    for name in result.table.names:
        b = standings["breakdown"][name]
        lines.append(
            ft.Text(
                t(
                    "{name}: targets {targets} + items {items} + codes {codes} + documents "
                    "{documents} + tokens {tokens} = {total}",
                    name=name,
                    total=t.number(standings["totals"][name]),
                    **b,
                )
            )
        )
    losers = standings["token_losers"]
    if len(losers) == 1:
        lines.append(ft.Text(t("{name} reached 9 tokens and lost at once.", name=losers[0])))
    elif losers:
        lines.append(ft.Text(t("Both reached 9 tokens on the same mission: a draw.")))
    elif result.finished and len(set(standings["totals"].values())) == 1:
        lines.append(ft.Text(t("Equal victory points: more tokens wins; equal tokens: a draw.")))
    return lines


def rounds_list(
    t: Translator, record: dict[str, Any], standings: dict[str, Any], open_entry: Any
) -> ft.Control:
    if not record["rounds"]:
        return note(t("No round played yet."))
    rows: list[ft.Control] = [heading(t("Rounds")), note(t("Tap a round to correct or delete it."))]
    for index, rnd in enumerate(record["rounds"]):
        resolved = standings["missions"][index] if index < len(standings["missions"]) else []
        parts = []
        for m_index, mission in enumerate(rnd["missions"]):
            winner = resolved[m_index]["winner"] if m_index < len(resolved) else None
            won = winner or (t("not played") if m_index >= len(resolved) else t("nobody"))
            parts.append(f"{card_label(t, mission['card'])}: {won}")
        rows.append(
            ft.ListTile(
                leading=ft.Text(str(index + 1), size=18),
                title=ft.Text(t("Round {number}", number=index + 1)),
                subtitle=ft.Text(" · ".join(parts)),
                on_click=lambda _e, i=index: open_entry(i),
            )
        )
    return ft.Column(rows, spacing=0)


# --- entering a round --------------------------------------------------------------------------


@ft.component
def RoundEntry(
    state: AppState,
    game_id: str,
    record: dict[str, Any],
    draft: dict[str, Any],
    set_draft: Any,
    editing: int,
    close: Any,
    saved: Any,
) -> ft.Control:
    t = state.t
    index = len(record["rounds"]) if editing == NEW else editing
    before = {**record, "rounds": record["rounds"][:index]}
    standings = scoring.standings(before)
    names = list(standings["totals"])
    errors = scoring.check_round(record, draft, None if editing == NEW else editing)
    # A correction opens at the first mission with a problem (a stored game that needs one).
    mission_index, set_mission = ft.use_state(lambda: first_mission_of(errors))
    previews = scoring.preview_round(before, draft)
    mission = draft["missions"][mission_index]
    preview = previews[mission_index] if mission_index < len(previews) else {}

    def change(update: Any) -> None:
        """Apply `update` to this mission as it is when the change arrives."""

        def apply(current: dict[str, Any]) -> dict[str, Any]:
            new = copy.deepcopy(current)
            update(new["missions"][mission_index])
            return new

        set_draft(apply)

    def save() -> None:
        try:
            state.save_round(game_id, None if editing == NEW else editing, draft)
        except REFUSALS as refused:
            state.say(" ".join(state.refusal(refused)))
            return
        state.say(t("Round {number} saved.", number=index + 1))
        saved()

    def delete() -> None:
        try:
            state.delete_round(game_id, editing)
        except REFUSALS as refused:
            state.say(" ".join(state.refusal(refused)))
            return
        state.say(t("Round {number} deleted", number=index + 1))
        saved()

    tabs = ft.Row(
        wrap=True,
        controls=[
            ft.Text(t("Mission")),
            *[
                ft.Chip(
                    label=ft.Text(str(i + 1), semantics_label=t("Mission {number}", number=i + 1)),
                    selected=i == mission_index,
                    on_select=lambda e, i=i: set_mission(i),
                )
                for i in range(rules.MISSIONS_PER_ROUND)
            ],
        ],
    )
    controls: list[ft.Control] = [
        heading(
            t("Round {number}", number=index + 1)
            if editing == NEW
            else t("Correct round {number}", number=index + 1)
        ),
        note(t("Missions in the order they are revealed.")),
        tabs,
        mission_card_picker(t, standings, draft, mission_index, change),
        alarm_picker(t, mission, change),
    ]
    for name in names:
        controls.append(player_plays(t, name, mission, preview, standings, change))
    controls.append(mission_result(t, preview))
    controls.append(error_box(problems_text(state, errors)))
    nav: list[ft.Control] = []
    if mission_index > 0:
        nav.append(
            ft.OutlinedButton(
                t("Previous mission"), height=48, on_click=lambda: set_mission(mission_index - 1)
            )
        )
    if mission_index < rules.MISSIONS_PER_ROUND - 1:
        nav.append(
            ft.FilledTonalButton(
                t("Next mission"), height=48, on_click=lambda: set_mission(mission_index + 1)
            )
        )
    controls.append(ft.Row(nav, wrap=True))
    buttons: list[ft.Control] = [
        ft.FilledButton(
            t("Save round"),
            icon=ft.Icons.SAVE,
            height=52,
            disabled=bool(errors),
            on_click=lambda: save(),
        ),
        ft.OutlinedButton(t("Cancel"), height=52, on_click=lambda: close()),
    ]
    if editing != NEW:
        buttons.append(
            ft.TextButton(
                t("Delete round"), icon=ft.Icons.DELETE_OUTLINE, on_click=lambda: delete()
            )
        )
    controls.append(ft.Row(buttons, wrap=True))
    return ft.Column(controls, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def first_mission_of(errors: list[scoring.RecordError]) -> int:
    """The index of the first mission a problem is on (0 when none is)."""
    found = [int(m.group(1)) for e in errors if (m := MISSION_PATH.search(e.path))]
    return min(found, default=0)


def mission_card_picker(
    t: Translator, standings: dict[str, Any], draft: dict[str, Any], mission_index: int, change: Any
) -> ft.Control:
    """Only cards still in the mission deck (not laid out earlier, nor in this round)."""
    in_round = Counter(
        card_key(m["card"])
        for i, m in enumerate(draft["missions"])
        if i != mission_index and m.get("card")
    )
    options = [
        (card_key(card), card_label(t, card))
        for card in standings["cards_left"]
        if card["left"] - in_round[card_key(card)] > 0
    ]
    current = draft["missions"][mission_index].get("card")
    if current and card_key(current) not in dict(options):
        options.append((card_key(current), card_label(t, current)))
    return choice_chips(
        t("Mission card"),
        options,
        card_key(current) if current else None,
        lambda key: change(lambda m: m.__setitem__("card", key_card(key))),
    )


def alarm_picker(t: Translator, mission: dict[str, Any], change: Any) -> ft.Control:
    return ft.Column(
        spacing=4,
        controls=[
            ft.Text(t('Counter-intelligence under it ("!" marks)')),
            ft.SegmentedButton(
                selected=[str(mission.get("alarm", 0))],
                segments=[
                    ft.Segment(value=str(n), label=ft.Text(t("none") if n == 0 else "!" * n))
                    for n in range(4)
                ],
                on_change=lambda e: change(
                    lambda m: m.__setitem__("alarm", int(e.control.selected[0]))
                ),
            ),
        ],
    )


def player_plays(
    t: Translator,
    name: str,
    mission: dict[str, Any],
    preview: dict[str, Any],
    standings: dict[str, Any],
    change: Any,
) -> ft.Control:
    """The cards `name` played on this mission, and a keypad of what is left of their deck."""
    played = mission.get("plays", {}).get(name, [])
    values = (preview.get("values") or {}).get(name) or []
    left = (preview.get("left") or {}).get(name) or rules.DECK
    may_add = (preview.get("may_add") or {}).get(name, True)
    total = (preview.get("totals") or {}).get(name)

    def add(label: str) -> None:
        change(lambda m: m.setdefault("plays", {}).setdefault(name, []).append(as_json_card(label)))

    def remove(position: int) -> None:
        change(lambda m: m["plays"][name].pop(position))

    def declare(position: int, value: int) -> None:
        """A 1/11 counts as `value` from now on: the player's choice at the reveal."""
        change(lambda m: m["plays"][name].__setitem__(position, value))

    header = ft.Row(
        [
            ft.Text(name, weight=ft.FontWeight.BOLD, size=16, expand=True),
            ft.Text(
                t("total {total}", total=t.number(total)) if total is not None else t("no cards"),
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ERROR if total and total > rules.PERFECT else None,
                semantics_label=t("{name}: total {total}", name=name, total=t.number(total))
                if total is not None
                else t("{name}: no cards", name=name),
            ),
        ]
    )
    chips = ft.Row(
        wrap=True,
        spacing=4,
        controls=[
            played_card(t, name, card, values[i] if i < len(values) else None, i, remove, declare)
            for i, card in enumerate(played)
        ]
        or [note(t("No cards played here."))],
    )
    keypad = ft.Row(
        wrap=True,
        spacing=4,
        controls=[
            ft.OutlinedButton(
                content=ft.Text(
                    f"{label}", semantics_label=t("{name} plays {card}", name=name, card=label)
                ),
                disabled=not may_add or left.get(label, 0) <= 0,
                on_click=lambda e, lab=label: add(lab),
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)),
            )
            for label in KEYPAD
        ],
    )
    extra: list[ft.Control] = []
    if not may_add:
        extra.append(
            ft.Text(
                t("{name} is above 21: no more cards on this mission.", name=name),
                color=ft.Colors.ERROR,
            )
        )
    if total == rules.PERFECT:
        returning = name in mission.get("perfect_return", [])
        extra.append(
            ft.Checkbox(
                label=t("Perfect 21: {name} returns a token", name=name),
                value=returning,
                disabled=standings["tokens"][name] == 0 and not returning,
                on_change=lambda e: change(
                    lambda m: m.__setitem__(
                        "perfect_return", sorted(set(m.get("perfect_return", [])) ^ {name})
                    )
                ),
            )
        )
    extra += item_effects(t, name, mission, preview, change)
    return ft.Card(
        # Each chip, key and switch is its own node for screen readers (and the tests).
        semantic_container=False,
        content=ft.Container(
            padding=10, content=ft.Column([header, chips, keypad, *extra], spacing=6)
        ),
    )


def played_card(
    t: Translator,
    name: str,
    card: Any,
    value: Any,
    position: int,
    remove: Any,
    declare: Any,
) -> ft.Control:
    """A played card: a tap takes it back. A 1/11 shows what it counts as and a tap declares
    the other value (the player's choice at the reveal); its x takes it back."""
    label = as_label(card)
    if rules.deck_card(label) != rules.ACE or value is None:
        return ft.Chip(
            label=ft.Text(
                label, semantics_label=t("{name}: take back {card}", name=name, card=label)
            ),
            on_select=lambda e: remove(position),
        )
    counts = int(value)
    other = 1 if counts == 11 else 11
    return ft.Chip(
        label=ft.Text(
            f"1/11 = {counts}",
            semantics_label=t("{name}: 1/11 counts as {value}", name=name, value=counts),
        ),
        on_click=lambda e: declare(position, other),
        on_delete=lambda e: remove(position),
        delete_icon_tooltip=t("{name}: take back 1/11", name=name),
    )


def item_effects(
    t: Translator,
    name: str,
    mission: dict[str, Any],
    preview: dict[str, Any],
    change: Any,
) -> list[ft.Control]:
    """The items `name` may use on this mission (the engine's offers, including an item won
    on this very mission that acts after the award), as switches; an effect already chosen
    stays listed so it can be switched off."""
    effects = mission.get("effects", [])
    offers = list((preview.get("offers") or {}).get(name) or [])
    offers += [e for e in effects if e.get("by") == name and e not in offers]
    controls: list[ft.Control] = []
    tokens_after = (preview.get("tokens") or {}).get(name)
    offers_balaclava = any(effect_acts_as(e) == "balaclava" for e in offers)
    if offers_balaclava and tokens_after is not None and tokens_after >= rules.TOKEN_LIMIT:
        controls.append(
            ft.Text(
                t("{name} reaches 9 tokens: use the Balaclava to discard 2?", name=name),
                color=ft.Colors.ERROR,
            )
        )
    for effect in offers:
        active = effect in effects

        def toggle(e: Any, eff: dict[str, Any] = effect) -> None:
            def update(m: dict[str, Any]) -> None:
                current = m.setdefault("effects", [])
                if eff in current:
                    current.remove(eff)
                else:
                    current.append(eff)
                if not current:
                    m.pop("effects")

            change(update)

        controls.append(ft.Switch(label=effect_label(t, effect), value=active, on_change=toggle))
    return controls


def effect_acts_as(effect: dict[str, Any]) -> str:
    return str(effect.get("as") or effect["item"])


def effect_label(t: Translator, effect: dict[str, Any]) -> str:
    """What using an item does, in words: "Newspaper: +3 for Ben", "USB Stick as Balaclava"."""
    item = t(str(rules.ITEM_NAMES[effect["item"]]))
    acts_as = effect_acts_as(effect)
    if acts_as != effect["item"]:
        item = t("{item} as {copied}", item=item, copied=t(str(rules.ITEM_NAMES[acts_as])))
    if acts_as == "newspaper":
        return t("{item}: +3 for {name}", item=item, name=effect["on"])
    if acts_as == "vesper-martini":
        return t("{item}: {change}", item=item, change="+1" if effect["adjust"] > 0 else "−1")
    if acts_as != effect["item"]:
        return item
    return t("Use the {item}", item=item)


def mission_result(t: Translator, preview: dict[str, Any]) -> ft.Control:
    if not preview.get("resolved"):
        return note(t("The result shows once the card and the plays are entered."))
    winner = preview["winner"]
    tokens = ", ".join(f"{n} {v}" for n, v in preview["tokens"].items())
    text = t("{name} wins this mission.", name=winner) if winner else t("Nobody wins this mission.")
    return info_box(
        [
            ft.Text(text, weight=ft.FontWeight.BOLD),
            note(t("Tokens after it: {tokens}", tokens=tokens)),
        ]
    )
