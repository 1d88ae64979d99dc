"""Kompromat at the table: tokens always in sight, six rounds of four missions, and a keypad of
the real equipment cards for entering what each player played."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import flet as ft

import scoring
from scoring import JSON, Record
from scoring import kompromat as rules
from scoring.errors import N_
from scoring.kompromat import (
    Effect,
    MissionCard,
    MissionDraft,
    MissionPreview,
    OutcomeDraft,
    RoundDraft,
)

from .. import buttons
from ..entry import (
    NEW,
    opener,
)
from ..frame import (
    asked_first,
    correction_banner,
    game_over_panel,
    screen,
)
from ..hooks import memo, use_latest, use_made_for, use_retained
from ..i18n import Translator
from ..round_entry import Carry, Drawn, Entering, Form, RoundEntryOf, use_round_entry
from ..safe import safe_effect, scrolled
from ..state import DETAILED, QUICK
from ..widgets import (
    TARGET,
    chip,
    choice_chips,
    drawn_as,
    heading,
    info_box,
    note,
    segmented,
    toggle_chip,
)
from . import AtTable, GameView, NewGameForm

MISSION_PATH = re.compile(r"\.missions\[(\d)\]")
Update = Callable[[MissionDraft], MissionDraft]
PLAYED_ROW_HEIGHT = TARGET + 8  # a chip a finger can hit, and room for the scroll bar
MISSION_TABS = "mission-tabs"  # the entry scrolls here when the next mission opens
# A keypad's card key: an outlined button, narrower than the app's (its height is the key's).
KEY_STYLE = buttons.style(
    ft.Colors.PRIMARY, ft.Colors.TRANSPARENT, padding=ft.Padding.symmetric(horizontal=8)
)


def card_label(t: Translator, card: MissionCard | None) -> str:
    if card is None:
        return t("(choose the card)")
    if card.kind == "target":
        return t("Target ({vp} VP)", vp=card.vp)
    if card.kind == "item":
        return t(str(rules.ITEM_NAMES[card.item or ""]))
    return t("Code") if card.kind == "code" else t("Document")


def card_key(card: MissionCard) -> str:
    return f"{card.kind}:{card.vp or card.item or ''}"


@ft.component
def KompromatScreen(at: AtTable, key: str | None = None) -> ft.View:
    """`at.fix_round`: the game was stored before a rule it breaks; only that round's
    correction is open (`at.result` is the game up to it)."""
    t = at.t
    board = rules.RULES.board(scoring.state_as(at.result, rules.State))
    entry = use_round_entry(at, ENTRY)
    # While a round is entered, its own panel counts it (`mission_fields`).
    tokens = [] if entry.open else [TokensPanel(t, board.players)]
    controls: list[ft.Control] = [*correction_banner(t, at.fix_round), *tokens]
    if entry.control is not None:
        controls.append(entry.control)
    # The rounds, under an open entry too (not shown), so that a Save shows them as they were
    # with the saved round added, and the entry stays for the next round (`frame.screen`). A
    # stored game to correct shows only that round's entry.
    sheet = None if at.fix_round is not None else rounds_sheet(at, board, entry.open_round)
    return screen(
        at,
        rules.RULES.title,
        controls,
        entering=entry.open,
        fills=entry.fills,
        scroller=entry.scroller,
        sheet=sheet,
        kept=entry.kept,
    )


def rounds_sheet(
    at: AtTable, board: rules.Board, open_round: Callable[[int], None]
) -> list[ft.Control]:
    """What the screen shows under the tokens while no entry is open: the result once the
    game is over, the next round's button, the rounds played."""
    t = at.t
    shown: list[ft.Control] = [game_over_panel(at)]
    if board.next_round is not None and not at.read_only:
        number, first = board.next_round
        shown.append(
            buttons.FilledButton(
                t(
                    "Enter round {number} of {rounds} ({name} starts)",
                    number=number,
                    rounds=rules.ROUNDS,
                    name=first,
                ),
                icon=ft.Icons.EDIT_NOTE,
                height=56,
                on_click=lambda: open_round(NEW),
            )
        )
    shown.append(rounds_list(at, board, open_round))
    return shown


@memo
@ft.component
def TokensPanel(t: Translator, players: tuple[rules.Standing, ...]) -> ft.Control:
    """Each player's tokens and victory points, drawn again only when they change (not at
    each key of the entry under it)."""
    cells: list[ft.Control] = []
    for player in players:
        name, tokens = player.name, player.tokens
        points = t.number(player.victory_points)
        lines: list[ft.Control] = [
            ft.Text(name, weight=ft.FontWeight.BOLD),
            ft.Text(
                t.plural("{count} token", "{count} tokens", tokens),
                size=18,
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ERROR if player.near_loss else None,
            ),
            ft.Text(
                t("{points} VP", points=points),
                semantics_label=t("{name}: {points} VP", name=name, points=points),
            ),
        ]
        if player.near_loss and player.to_loss > 0:
            lines.append(
                ft.Text(
                    t.plural(
                        "{count} more and {name} loses!",
                        "{count} more and {name} loses!",
                        player.to_loss,
                        name=name,
                    ),
                    color=ft.Colors.ERROR,
                    size=12,
                )
            )
        if player.unused_items:
            lines.append(
                note(
                    t(
                        "Items: {names}",
                        names=", ".join(t(str(rules.ITEM_NAMES[i])) for i in player.unused_items),
                    )
                )
            )
        cells.append(
            ft.Container(
                ft.Column(lines, spacing=2),
                expand=1,
                padding=10,
                border_radius=12,
                bgcolor=ft.Colors.ERROR_CONTAINER
                if player.near_loss
                else ft.Colors.SECONDARY_CONTAINER,
            )
        )
    return ft.Row(cells, vertical_alignment=ft.CrossAxisAlignment.START)


def explained(t: Translator, result: scoring.Replay) -> list[str]:
    """Why the result is what it is, where the victory points alone do not say it."""
    board = rules.RULES.board(scoring.state_as(result, rules.State))
    losers = board.token_losers
    if len(losers) == 1:
        return [t("{name} reached 9 tokens and lost at once.", name=losers[0])]
    if losers:
        return [t("Both reached 9 tokens on the same mission: a draw.")]
    if result.finished and len({p.victory_points for p in board.players}) == 1:
        return [t("Equal victory points: more tokens wins; equal tokens: a draw.")]
    return []


def made_of(t: Translator, result: scoring.Replay) -> dict[str, str]:
    """Each player's victory points by kind, and their perfect 21s."""
    board = rules.RULES.board(scoring.state_as(result, rules.State))
    facts = result.player_facts
    said: dict[str, str] = {}
    for player in board.players:
        said[player.name] = t(
            "Targets {targets} + items {items} + codes {codes} + documents {documents} + "
            "tokens {tokens}",
            **player.breakdown,
        )
        perfect = facts[player.name]["perfect"]
        if perfect:
            said[player.name] += " · " + t.plural(
                "{count} perfect 21", "{count} perfect 21s", perfect
            )
    return said


def rounds_list(at: AtTable, board: rules.Board, open_entry: Callable[[int], None]) -> ft.Control:
    t = at.t
    if not board.rounds:
        return note(t("No round played yet."))
    rows: list[ft.Control] = [heading(t("Rounds"))]
    if not at.read_only:
        rows.append(note(t("Tap a round to correct or delete it.")))
    for index, missions in enumerate(board.rounds):
        parts = []
        for mission in missions:
            won = (mission.winner or t("nobody")) if mission.resolved else t("not played")
            parts.append(f"{card_label(t, mission.card)}: {won}")
        rows.append(
            ft.ListTile(
                leading=ft.Text(str(index + 1), size=18),
                title=ft.Text(t("Round {number}", number=index + 1)),
                subtitle=ft.Text(" · ".join(parts)),
                on_click=asked_first(at, opener(open_entry, index)),
            )
        )
    return ft.Column(rows, spacing=0)


# --- entering a round --------------------------------------------------------------------------


def first_mission_of(errors: list[scoring.RecordError]) -> int:
    """The index of the first mission a problem is on (0 when none is)."""
    found = [int(m.group(1)) for e in errors if (m := MISSION_PATH.search(e.path))]
    return min(found, default=0)


def mission_fields(entering: Entering[RoundDraft]) -> Drawn:
    """A round, mission by mission. Quick: each mission's marks, who won and its card; cards:
    each player's cards, the "!" marks and the card. Either way the mission's card (or, in
    quick entry, who won, if tapped last) completes it and opens the next mission."""
    t, draft = entering.t, entering.draft
    before_state = scoring.state_as(entering.before, rules.State)
    board = rules.RULES.board(before_state)
    names = list(entering.before.table.names)
    previews = rules.RULES.preview(before_state, draft)
    # Up to the mission that ended the game by 9 tokens (the engine's word): nothing after it
    # is asked for, and the round is saved as it stands.
    played = rules.missions_played(previews)
    # A correction opens at the first mission with a problem (a stored game that needs one).
    chosen_index, set_mission = use_made_for(
        entering.opened, lambda: first_mission_of(entering.errors)
    )
    mission_index = min(chosen_index, played - 1)  # a mission after the end is not there
    mission = draft.missions[mission_index]
    preview = previews[mission_index]
    moved_on = ft.use_ref(False)  # the mission shown opened by itself: scroll up to it

    def change_in(part: str) -> Callable[[Update], None]:
        """A change to `part` of this mission, applied to it as it is when the change arrives
        (and from now on the errors about that part are shown)."""

        def change(update: Update) -> None:
            entering.touch(f"missions[{mission_index}].{part}")
            entering.change(
                lambda current: current.with_mission(
                    mission_index, update(current.missions[mission_index])
                )
            )

        return change

    def change_plays_of(name: str, update: Update) -> None:
        change_in(f"plays.{name}")(update)

    # The same function at every drawing: a player's cards are drawn again only when changed.
    change_plays = use_latest(change_plays_of)
    last_mission = mission_index == played - 1

    def ends_game(update: Update) -> bool:
        """Whether this mission, so changed, ends the game by 9 tokens (the engine's preview
        says): then no mission opens after it."""
        changed = draft.with_mission(mission_index, update(mission))
        return rules.RULES.preview(before_state, changed)[mission_index].ends_game

    def decide(winner: str | None) -> None:
        """Quick entry: a mission is complete with its card and who took it, tapped in either
        order; then the next mission opens, at the same place on the screen (unless the game
        ended there)."""

        def update(m: MissionDraft) -> MissionDraft:
            return m.with_outcome(m.outcome.won_by(winner))

        change_in("outcome.winner")(update)
        if mission.card is not None and not last_mission and not ends_game(update):
            set_mission(mission_index + 1)

    def choose_card(update: Update) -> None:
        """The card completes a mission whose outcome (quick) or cards are in: the next
        mission opens (unless the game ended there). The cards entry scrolls up to it, its
        keypads being above the card."""
        change_in("card")(update)
        if last_mission or ends_game(update):
            return
        if draft.quick and mission.outcome.decided:
            set_mission(mission_index + 1)
        elif not draft.quick and preview.everyone_laid(mission):
            moved_on.current = True
            set_mission(mission_index + 1)

    def show_moved_on_mission() -> None:
        """Once a mission has opened by itself: up to its tabs (run after the drawing, when the
        column that scrolls is the one on the screen)."""
        column = entering.scroller.current
        if moved_on.current and column is not None:
            ft.context.page.run_task(scrolled, column, scroll_key=MISSION_TABS, duration=150)
        moved_on.current = False

    ft.use_effect(safe_effect(show_moved_on_mission), [mission_index])
    # What stays as it was is the very control drawn last (a key of the keypad redraws the
    # rest of the mission): its handlers are the same at every drawing of an opening.
    retained = use_retained(entering.opened)

    standings = rules.RULES.standings_while_entered(before_state, draft)
    controls: list[ft.Control] = [
        TokensPanel(t, standings),  # the round entered so far counted: a loss in it warned of
        retained("intro", t, lambda: note(t("Missions in the order they are revealed."))),
        retained(
            "tabs",
            (t, played, mission_index),
            lambda: mission_tabs(t, played, mission_index, set_mission),
        ),
    ]
    ending = previews[played - 1]
    if ending.ends_game and mission_index < played - 1:  # the end is on a later mission
        controls.append(note(game_over_text(t, ending), color=ft.Colors.ERROR))
    if mission_index > 0:
        controls += mission_done(t, mission_index - 1, previews[mission_index - 1])
    card_picker = mission_card_picker(t, board, draft, mission_index, use_latest(choose_card))
    alarm = alarm_picker(t, mission, preview, change_in("alarm"))
    revealed = [
        control
        for player in board.players
        for control in after_reveal(t, player, mission, preview, change_in("effects"))
    ]
    if draft.quick:
        # Everything a mission can record above the long list of cards, the card last: who
        # went above 21, hit 21 (and gives a token back) or played nothing, who won, the "!"
        # marks, the items used. A plain mission's two taps (who won, the card) are in sight
        # without scrolling, and the card, tapped last, opens the next mission with nothing
        # of this one left below it.
        controls.append(outcome_marks(t, names, mission.outcome, change_in("outcome")))
        controls += [*revealed, winner_buttons(t, names, mission.outcome, decide), alarm]
        controls.append(card_picker)
    else:
        # As the table reads a mission: the cards, the "!" marks, what the reveal allows, and
        # the card last, which takes the entry on to the next mission (no tap to move on).
        for player in board.players:
            controls.append(player_plays(t, player, mission, preview, change_plays))
        controls += [alarm, *revealed]
        if not last_mission:
            opens = t("Choosing the mission card opens the next mission.")
            controls.append(retained("opens", opens, lambda: note(opens)))
        controls.append(card_picker)
    controls.append(mission_result(t, preview, draft.quick))
    if preview.ends_game:
        controls.append(game_over_box(t, preview, mission_index < len(draft.missions) - 1))
    controls.append(
        retained(
            "nav",
            (t, mission_index, played),
            lambda: mission_nav(t, mission_index, played, set_mission),
        )
    )
    return Drawn(controls)


def mission_tabs(t: Translator, played: int, shown: int, show: Callable[[int], None]) -> ft.Control:
    """One chip per mission played so far; the one shown is chosen."""
    return ft.Row(
        wrap=True,
        key=ft.ScrollKey(MISSION_TABS),  # type: ignore[call-arg]
        controls=[
            ft.Text(t("Mission")),
            *[
                chip(
                    label=ft.Text(str(i + 1), semantics_label=t("Mission {number}", number=i + 1)),
                    selected=i == shown,
                    key=drawn_as("mission", i, i == shown),
                    on_click=lambda e, i=i: show(i),
                )
                for i in range(played)
            ],
        ],
    )


def mission_nav(t: Translator, shown: int, played: int, show: Callable[[int], None]) -> ft.Control:
    nav: list[ft.Control] = []
    if shown > 0:
        nav.append(
            buttons.OutlinedButton(
                t("Previous mission"), height=48, on_click=lambda: show(shown - 1)
            )
        )
    if shown < played - 1:
        nav.append(
            buttons.FilledTonalButton(
                t("Next mission"), height=48, on_click=lambda: show(shown + 1)
            )
        )
    return ft.Row(nav, wrap=True)


def entered_round(before: scoring.Replay, draft: RoundDraft) -> Record:
    """The round as it is saved: up to the mission that ended the game (the engine's preview
    says which)."""
    return draft.saved(rules.RULES.preview(scoring.state_as(before, rules.State), draft))


def round_title(t: Translator, index: int, correcting: bool) -> str:
    if correcting:
        return t("Correct round {number}", number=index + 1)
    return t("Round {number}", number=index + 1)


def kept_round(before: scoring.Replay, entry: Record, quick: bool) -> RoundDraft:
    return RoundDraft.from_json(entry["round"], before.table).in_form(quick)


def entered_quickly(raw: JSON) -> bool:
    """Whether a round (saved or kept) is in outcome form: its first mission is (a round
    mixing forms shows as its first mission, as `RoundDraft.quick` says)."""
    missions = raw.get("missions") if isinstance(raw, dict) else None
    first = missions[0] if isinstance(missions, list) and missions else None
    return isinstance(first, dict) and "outcome" in first


def form_of_kept(entry: Record) -> str:
    """The form of a draft kept before forms were named: the form its missions are in."""
    return QUICK if entered_quickly(entry.get("round")) else DETAILED


def round_form(quick: bool) -> Form[RoundDraft]:
    """Kompromat's two forms share one draft: each mission's card, "!" marks and items, and
    either its outcome (quick) or each player's cards."""
    return Form(
        blank=lambda before: RoundDraft.blank(before.table, quick=quick),
        of_round=lambda before, raw: RoundDraft.from_json(raw, before.table).in_form(quick),
        read_kept=lambda before, entry: kept_round(before, entry, quick),
        kept=lambda draft: {"round": draft.to_json()},
        entered=entered_round,
        fields=mission_fields,
    )


ENTRY = RoundEntryOf(
    quick=round_form(quick=True),
    cards=round_form(quick=False),
    was_quick=entered_quickly,
    title=round_title,
    save_label=N_("Save round"),
    saved=lambda t, after, index: t("Round {number} saved.", number=index + 1),
    delete_label=N_("Delete round"),
    carry=Carry(
        to_cards=lambda draft: draft.in_form(False),
        to_quick=lambda draft: draft.in_form(True),
        form_of_kept=form_of_kept,
    ),
)


def mission_done(t: Translator, index: int, preview: MissionPreview) -> list[ft.Control]:
    """How the mission before this one ended, so that the table sees what it just entered
    once the next mission has opened by itself (nothing after the end of the game)."""
    if preview.ended:
        return []
    if not preview.resolved:
        return [note(t("Mission {number}: not complete yet.", number=index + 1))]
    tokens = ", ".join(f"{n} {v}" for n, v in (preview.tokens or {}).items())
    if preview.winner is None:
        text = t("Mission {number}: nobody wins. Tokens: {tokens}", number=index + 1, tokens=tokens)
    else:
        text = t(
            "Mission {number}: {name} wins. Tokens: {tokens}",
            number=index + 1,
            name=preview.winner,
            tokens=tokens,
        )
    return [note(text)]


def game_over_text(t: Translator, preview: MissionPreview) -> str:
    """Who reached 9 tokens on the mission that ended the game."""
    losers = preview.losers
    if len(losers) == 1:
        name = losers[0]
        count = (preview.tokens or {}).get(name, rules.TOKEN_LIMIT)
        return t.plural(
            "{name} has {count} token: the game is over.",
            "{name} has {count} tokens: the game is over.",
            count,
            name=name,
        )
    return t("Both have 9 tokens or more: the game is over, a draw.")


def game_over_box(t: Translator, preview: MissionPreview, later_missions: bool) -> ft.Control:
    """The mission that ended the game: nothing more is asked for (no later mission is
    revealed), and Save keeps the missions played."""
    lines: list[ft.Control] = [
        ft.Text(game_over_text(t, preview), weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR)
    ]
    if later_missions:
        lines.append(note(t("No mission follows: save the round as it stands.")))
    return info_box(lines, ft.Colors.ERROR_CONTAINER)


def mission_card_picker(
    t: Translator,
    board: rules.Board,
    draft: RoundDraft,
    mission_index: int,
    change: Callable[[Update], None],
) -> ft.Control:
    """Only cards still in the mission deck (not laid out earlier, nor in this round)."""
    in_round = Counter(
        card_key(m.card)
        for i, m in enumerate(draft.missions)
        if i != mission_index and m.card is not None
    )
    cards = {
        card_key(card): card
        for card, left in board.cards_left
        if left - in_round[card_key(card)] > 0
    }
    current = draft.missions[mission_index].card
    if current is not None:
        cards.setdefault(card_key(current), current)
    return choice_chips(
        t("Mission card"),
        [(key, card_label(t, card)) for key, card in cards.items()],
        card_key(current) if current else None,
        CardPick(change, tuple(cards.items())),
    )


@dataclass(frozen=True)
class CardPick:
    """Chooses a mission card by its key (equal at every drawing while the cards offered are
    the same, so the chips are not drawn again: `change` is the same function every time)."""

    change: Callable[[Update], None]
    cards: tuple[tuple[str, MissionCard], ...]

    def __call__(self, key: str) -> None:
        card = dict(self.cards)[key]
        self.change(lambda m: m.with_card(card))


def alarm_picker(
    t: Translator, mission: MissionDraft, preview: MissionPreview, change: Callable[[Update], None]
) -> ft.Control:
    """The "!" marks under the mission card: those the engine says are left (a mark already
    chosen stays, to be taken back)."""
    return ft.Column(
        spacing=4,
        controls=[
            ft.Text(t('Counter-intelligence under it ("!" marks)')),
            segmented(
                selected=[str(mission.alarm)],
                key=drawn_as("alarm", mission.alarm),
                segments=[
                    ft.Segment(
                        value=str(n),
                        label=ft.Text(t("none") if n == 0 else "!" * n),
                        disabled=n not in preview.may_alarm and n != mission.alarm,
                    )
                    for n in rules.ALARM_MARKS
                ],
                on_change=lambda e: change(lambda m: m.with_alarm(int(e.control.selected[0]))),
            ),
        ],
    )


@dataclass(frozen=True)
class PlaysShown:
    """What a player's cards on a mission show (equal from one key to the next unless the key
    changed them): the cards played, what each counts, the deck left and the total."""

    name: str
    played: tuple[str, ...]
    values: tuple[Fraction, ...]
    left: tuple[tuple[str, int], ...]
    may_add: bool
    total: Fraction | None

    @classmethod
    def of(cls, name: str, mission: MissionDraft, preview: MissionPreview) -> PlaysShown:
        left = tuple(sorted(preview.left[name].items()))
        values = tuple(preview.values.get(name, ()))
        total = preview.totals.get(name)
        return cls(name, tuple(mission.cards_of(name)), values, left, preview.may_add[name], total)


def player_plays(
    t: Translator,
    player: rules.Standing,
    mission: MissionDraft,
    preview: MissionPreview,
    change: Callable[[str, Update], None],
) -> ft.Control:
    """The cards a player played on this mission, and a keypad of what is left of their deck
    (`change`: a change to a player's cards, the same function at every drawing)."""
    shown = PlaysShown.of(player.name, mission, preview)
    return PlayerPlays(t, shown, change, key=player.name)


@memo
@ft.component
def PlayerPlays(
    t: Translator,
    shown: PlaysShown,
    change_of: Callable[[str, Update], None],
    key: str | None = None,  # the component's own (Flet takes it; never given here)
) -> ft.Control:
    """A player's cards and keypad (see `player_plays`), drawn again only when they change."""
    name, played, values, may_add, total = (
        shown.name,
        shown.played,
        shown.values,
        shown.may_add,
        shown.total,
    )
    left = dict(shown.left)

    def change(update: Update) -> None:
        change_of(name, update)

    def add(label: str) -> None:
        change(lambda m: m.played(name, label))

    def remove(position: int) -> None:
        change(lambda m: m.taken_back(name, position))

    def declare(position: int, value: int) -> None:
        """A 1/11 counts as `value` from now on: the player's choice at the reveal."""
        change(lambda m: m.declared(name, position, value))

    header = ft.Row(
        [
            ft.Text(name, weight=ft.FontWeight.BOLD, size=16, expand=True),
            ft.Text(
                t("total {total}", total=t.number(total)) if total is not None else t("no cards"),
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ERROR if total is not None and total > rules.PERFECT else None,
                semantics_label=t("{name}: total {total}", name=name, total=t.number(total))
                if total is not None
                else t("{name}: no cards", name=name),
            ),
        ]
    )
    # One line of fixed height that scrolls sideways: a played card never moves the keypad.
    chips = ft.Container(
        height=PLAYED_ROW_HEIGHT,
        alignment=ft.Alignment.CENTER_LEFT,
        content=ft.Row(
            scroll=ft.ScrollMode.AUTO,
            spacing=4,
            controls=[
                played_card(
                    t, name, label, values[i] if i < len(values) else None, i, remove, declare
                )
                for i, label in enumerate(played)
            ]
            or [note(t("No cards played here."))],
        ),
    )
    retained = use_retained()

    def keypad_key(label: str, disabled: bool) -> ft.Control:
        return buttons.OutlinedButton(
            content=ft.Text(label, semantics_label=t("{name} plays {card}", name=name, card=label)),
            disabled=disabled,
            on_click=lambda e: add(label),
            height=TARGET,
            style=KEY_STYLE,
        )

    # A key is the very control drawn last while it stays as it was (what `add` does with
    # it depends on the name and `change_of` alone, both the same at every drawing).
    keys: list[ft.Control] = []
    for label in rules.HAND:
        disabled = not may_add or left.get(label, 0) <= 0
        made_of = (disabled, t, name, change_of)
        keys.append(retained(label, made_of, partial(keypad_key, label, disabled)))
    keypad = ft.Row(wrap=True, spacing=4, controls=keys)
    # The line under the keypad is always there (empty until a bust), so it never moves.
    stop = ft.Text(
        t("{name} is above 21: no more cards on this mission.", name=name) if not may_add else "",
        color=ft.Colors.ERROR,
    )
    return ft.Card(
        # Each chip, key and switch is its own node for screen readers (and the tests).
        semantic_container=False,
        content=ft.Container(
            padding=10, content=ft.Column([header, chips, keypad, stop], spacing=6)
        ),
    )


def after_reveal(
    t: Translator,
    player: rules.Standing,
    mission: MissionDraft,
    preview: MissionPreview,
    change: Callable[[Update], None],
) -> list[ft.Control]:
    """What a player may do once the mission is revealed (a perfect 21's token, items): below
    every keypad, so that what appears here moves no key."""
    name = player.name
    extra: list[ft.Control] = []
    if name in preview.perfect:  # exactly 21 after the items: the engine's word
        changed_by = preview.perfect[name]
        if changed_by:  # Decision: a 21 after a Newspaper or Vesper Martini is a perfect 21
            items = ", ".join(total_change(t, effect) for effect in changed_by)
            extra.append(
                note(
                    t(
                        "{name} has 21 with {items}: a perfect 21 (house rule).",
                        name=name,
                        items=items,
                    )
                )
            )
        returning = name in mission.perfect_return
        extra.append(
            toggle_chip(
                t("Perfect 21: {name} returns a token", name=name),
                returning,
                lambda: change(lambda m: m.with_return(name)),
                disabled=name not in preview.may_return and not returning,
            )
        )
    extra += item_effects(t, name, mission, preview, change)
    return extra


MARK_LABELS = {"busts": N_("above 21"), "perfect": N_("21"), "no_cards": N_("no cards")}


def outcome_marks(
    t: Translator, names: list[str], outcome: OutcomeDraft, change: Callable[[Update], None]
) -> ft.Control:
    """How the mission ended for each player, as the table saw it (quick entry): above 21,
    exactly 21 or no cards; nothing marked is a total of 21 or less."""

    def toggle(mark: str, name: str) -> None:
        change(lambda m: m.with_outcome(m.outcome.marked(mark, name, tuple(names))))

    rows: list[ft.Control] = [ft.Text(t("Anyone above 21, at 21, or without cards?"))]
    marks = outcome.marks()
    for name in names:
        chips = [
            chip(
                label=ft.Text(
                    t(str(label)),
                    semantics_label=t("{name}: {mark}", name=name, mark=t(str(label))),
                ),
                selected=name in marks[mark],
                on_select=lambda e, mark=mark, name=name: toggle(mark, name),
                key=drawn_as(name, mark, name in marks[mark]),
            )
            for mark, label in MARK_LABELS.items()
        ]
        rows.append(
            ft.Row(
                [
                    ft.Text(
                        name,
                        weight=ft.FontWeight.BOLD,
                        width=72,
                        no_wrap=True,
                        overflow=ft.TextOverflow.ELLIPSIS,  # cut at a whole letter, "…"
                    ),
                    *chips,
                ],
                spacing=6,
                wrap=True,
            )
        )
    return ft.Column(rows, spacing=6)


def winner_buttons(
    t: Translator, names: list[str], outcome: OutcomeDraft, decide: Callable[[str | None], None]
) -> ft.Control:
    """Who takes the mission card: one tap, which also opens the next mission."""
    options: list[tuple[str | None, str]] = [(name, t("{name} wins", name=name)) for name in names]
    options.append((None, t("Nobody wins")))
    filled, outlined = buttons.FilledButton, buttons.OutlinedButton
    choices: list[ft.Control] = [
        (filled if outcome.decided and outcome.winner == who else outlined)(
            label, height=TARGET, on_click=lambda e, who=who: decide(who)
        )
        for who, label in options
    ]
    return ft.Column(
        [ft.Text(t("Who takes the mission card?")), ft.Row(choices, wrap=True, spacing=6)],
        spacing=4,
    )


def played_card(
    t: Translator,
    name: str,
    label: str,
    value: object,
    position: int,
    remove: Callable[[int], None],
    declare: Callable[[int, int], None],
) -> ft.Control:
    """A played card: a tap takes it back. A 1/11 shows what it counts as and a tap declares
    the other value (the player's choice at the reveal); its x takes it back."""
    if rules.deck_card(label) != rules.ACE or value is None:
        return chip(
            label=ft.Text(
                label, semantics_label=t("{name}: take back {card}", name=name, card=label)
            ),
            on_select=lambda e: remove(position),
        )
    counts = int(str(value))
    other = rules.other_ace_value(counts)
    return chip(
        label=ft.Text(
            f"{rules.ACE} = {counts}",
            semantics_label=t("{name}: 1/11 counts as {value}", name=name, value=counts),
        ),
        on_click=lambda e: declare(position, other),
        on_delete=lambda e: remove(position),
        delete_icon_tooltip=t("{name}: take back 1/11", name=name),
    )


def item_effects(
    t: Translator,
    name: str,
    mission: MissionDraft,
    preview: MissionPreview,
    change: Callable[[Update], None],
) -> list[ft.Control]:
    """The items `name` may use on this mission (the engine's offers, including an item won
    on this very mission that acts after the award), as switches; an effect already chosen
    stays listed so it can be switched off."""
    offers = list(preview.offers.get(name, ()))
    offers += [e for e in mission.effects if e.by == name and e not in offers]
    controls: list[ft.Control] = []
    offers_balaclava = any(e.acts_as == "balaclava" for e in offers)
    if offers_balaclava and name in preview.losers:
        controls.append(
            ft.Text(
                t("{name} reaches 9 tokens: use the Balaclava to discard 2?", name=name),
                color=ft.Colors.ERROR,
            )
        )
    for effect in offers:
        controls.append(
            toggle_chip(effect_label(t, effect), effect in mission.effects, toggler(change, effect))
        )
    return controls


def toggler(change: Callable[[Update], None], effect: Effect) -> Callable[[], None]:
    return lambda: change(lambda m: m.with_effect(effect))


def total_change(t: Translator, effect: Effect) -> str:
    """What an item did to a total, in short: "Newspaper +3", "Vesper Martini −1"."""
    item = t(str(rules.ITEM_NAMES[effect.acts_as]))
    if effect.acts_as != effect.item:
        item = t("{item} as {copied}", item=t(str(rules.ITEM_NAMES[effect.item])), copied=item)
    if effect.acts_as == "newspaper":
        return f"{item} +{rules.NEWSPAPER_BONUS}"
    return f"{item} {'+1' if effect.adjust > 0 else '−1'}"


def effect_label(t: Translator, effect: Effect) -> str:
    """Whose item it is and what using it does: "Anna: Newspaper: +3 for Ben", "Ben: USB
    Stick as Balaclava", "Anna: use the GPS Tracker" (a mission offers both players')."""
    return t("{name}: {use}", name=effect.by, use=item_use(t, effect))


def item_use(t: Translator, effect: Effect) -> str:
    """What using an item does, in words: "Newspaper: +3 for Ben", "USB Stick as Balaclava"."""
    item = t(str(rules.ITEM_NAMES[effect.item]))
    if effect.acts_as != effect.item:
        item = t("{item} as {copied}", item=item, copied=t(str(rules.ITEM_NAMES[effect.acts_as])))
    if effect.acts_as == "newspaper":
        return t(
            "{item}: +{points} for {name}",
            item=item,
            points=rules.NEWSPAPER_BONUS,
            name=effect.on or "",
        )
    if effect.acts_as == "vesper-martini":
        return t("{item}: {change}", item=item, change="+1" if effect.adjust > 0 else "−1")
    if effect.acts_as != effect.item:
        return item
    return t("use the {item}", item=item)


def mission_result(t: Translator, preview: MissionPreview, quick: bool) -> ft.Control:
    if not preview.resolved and quick:
        return note(t("The result shows once the card and who took it are entered."))
    if not preview.resolved:
        return note(t("The result shows once the card and the plays are entered."))
    winner = preview.winner
    tokens = ", ".join(f"{n} {v}" for n, v in (preview.tokens or {}).items())
    text = t("{name} wins this mission.", name=winner) if winner else t("Nobody wins this mission.")
    return info_box(
        [
            ft.Text(text, weight=ft.FontWeight.BOLD),
            note(t("Tokens after it: {tokens}", tokens=tokens)),
        ]
    )


# --- a new game's options ----------------------------------------------------------------------


def options_of(seats: tuple[str, ...], options: scoring.Record) -> scoring.Record:
    first = options.get("first_player")
    return {"first_player": first if first in seats else seats[0]}


def options_form(form: NewGameForm) -> list[ft.Control]:
    t, seats = form.t, list(form.seats)
    first = str(options_of(form.seats, form.options)["first_player"])
    return [
        heading(t("Who starts?")),
        choice_chips(
            t("First player"),
            [(name, name) for name in seats],
            first,
            lambda name: form.set_options(lambda current: {**current, "first_player": name}),
        ),
    ]


VIEW = GameView(
    rules=rules.RULES,
    icon=ft.Icons.FOLDER_SPECIAL,
    margin_words=N_("ahead by {margin} VP"),
    scoreboard=False,  # its tokens panel says each player's points
    screen=KompromatScreen,
    options_form=options_form,
    options_of=options_of,
    facts={"token_losses": N_("Lost by 9 tokens"), "perfect": N_("Perfect 21s")},
    made_of=made_of,
    explained=explained,
)
