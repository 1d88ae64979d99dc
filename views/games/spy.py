"""SPY at the table: each base's next target and lit bombs; one-tap events; who is out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import flet as ft

import scoring
from scoring import JSON, Record, spy
from scoring.errors import N_

from .. import buttons
from ..frame import asked_first, correction_banner, game_over_panel, screen
from ..hooks import memo, use_latest
from ..i18n import Translator
from ..round_entry import Drawn, Entering, Form, RoundEntryOf, use_round_entry
from ..widgets import choice_chips, heading, info_box, note
from . import AtTable, GameView, NewGameForm

TARGET_NAMES = {
    "safe-1": N_("Safe 1"),
    "safe-2": N_("Safe 2"),
    "top-secret-1": N_("Top Secret 1"),
    "top-secret-2": N_("Top Secret 2"),
}


def target_name(t: Translator, target: str) -> str:
    return t(TARGET_NAMES[target])


def describe(t: Translator, entry: spy.LoggedEvent) -> str:
    """One event as the table would say it."""
    if entry.kind == "target":
        text = t(
            "{by} found {base}'s {target}",
            by=entry.by,
            base=entry.base,
            target=target_name(t, entry.target or ""),
        )
        if entry.out:
            text += " · " + t("{name} is out", name=entry.out)
        return text
    if entry.kind == "bomb-lit":
        return t("{by} lit a bomb in {base}'s base", by=entry.by, base=entry.base)
    return t(
        "{by} found a lit bomb in {base}'s base: it exploded, {by} is out",
        by=entry.by,
        base=entry.base,
    )


@ft.component
def SpyScreen(at: AtTable, key: str | None = None) -> ft.View:
    """The bases, the event panel under them while the game is not over (each event button
    saves at once), and the events, each opening its correction. `at.fix_round`: the game was
    stored before a rule it breaks; only that event's correction is open (`at.result` is the
    game up to it)."""
    t = at.t
    entry = use_round_entry(at, ENTRY)
    board = board_of(at.result)
    controls: list[ft.Control] = [*correction_banner(t, at.fix_round)]
    if at.fix_round is None:
        controls.append(game_over_panel(at))
    controls.append(bases(t, board))
    if entry.control is not None:
        controls.append(info_box([entry.control]))
    # A guest who watches corrects nothing; while a stored game must be corrected, only that
    # event may be (the others stay as they are).
    fixed = at.read_only or at.fix_round is not None
    correct = use_latest(correction_of(at, entry.open_round))  # the log is drawn per event
    controls.append(EventLog(t, board.log, None if fixed else correct))
    return screen(at, spy.RULES.title, controls, entering=entry.open)


def board_of(result: scoring.Replay) -> spy.Board:
    return spy.RULES.board(scoring.state_as(result, spy.State))


def bases(t: Translator, board: spy.Board) -> ft.Control:
    cards: list[ft.Control] = [heading(t("Bases"))]
    over = sum(base.place is None for base in board.bases) < 2
    for base in board.bases:
        if base.place is not None:
            status = t("Out · place {place}", place=base.place)
        elif over:
            status = t("Won: the last one in")
        else:
            status = t("Next target: {target}", target=target_name(t, base.next_target or ""))
        cards.append(
            ft.Card(
                content=ft.Container(
                    padding=10,
                    content=ft.Row(
                        [
                            ft.Column(
                                [
                                    ft.Text(base.owner, weight=ft.FontWeight.BOLD, size=16),
                                    ft.Text(status),
                                ],
                                spacing=2,
                                expand=True,
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCK_OPEN if i < base.found else ft.Icons.LOCK,
                                        size=18,
                                    )
                                    for i in range(len(spy.TARGETS))
                                ],
                                spacing=0,
                                tooltip=t.plural(
                                    "{count} of 4 targets found",
                                    "{count} of 4 targets found",
                                    base.found,
                                ),
                            ),
                            ft.Row(
                                [
                                    ft.Icon(
                                        ft.Icons.LOCAL_FIRE_DEPARTMENT
                                        if i < base.lit
                                        else ft.Icons.CIRCLE_OUTLINED,
                                        size=18,
                                        color=ft.Colors.ERROR if i < base.lit else None,
                                    )
                                    for i in range(base.bombs)
                                ],
                                spacing=0,
                            ),
                            ft.Text(t.plural("{count} lit", "{count} lit", base.lit), size=12),
                        ]
                    ),
                )
            )
        )
    return ft.Column(cards, spacing=4)


# --- entering an event ------------------------------------------------------------------------


@dataclass(frozen=True)
class Spied:
    """An event as the chips stand: who spied, on whose base, and its kind (the one being
    corrected; a new event's is a found target). An event button saves it with its own kind."""

    by: str
    base: str
    kind: str = "target"

    def among(self, still_in: list[str]) -> Spied:
        """The chips as they stand in this game: a player out since they were chosen gives way
        to the first still in (nobody spies on their own base). Fewer than two in: as it is."""
        if len(still_in) < 2:
            return self
        by = self.by if self.by in still_in else still_in[0]
        others = [name for name in still_in if name != by]
        return Spied(by, self.base if self.base in others else others[0], self.kind)

    def event(self, kind: str) -> Record:
        return spy.Event(kind, self.by, self.base).to_json()


def blank_spied(before: scoring.Replay) -> Spied:
    event = before.blank_round()
    return Spied(str(event["by"]), str(event["base"]))


def spied_of(saved: JSON) -> Spied:
    event = scoring.as_object(saved)
    return Spied(str(event["by"]), str(event["base"]), str(event["event"]))


def entered_event(before: scoring.Replay, spied: Spied) -> Record:
    return spied.among(list(board_of(before).still_in)).event(spied.kind)


def event_fields(entering: Entering[Spied]) -> Drawn:
    """Who spied and on whose base (chips), then one button per event, each saving it at once
    (those the base does not allow are disabled)."""
    t = entering.t
    board = board_of(entering.before)
    still_in = list(board.still_in)
    if len(still_in) < 2:  # a stored event after the game was won: it can only be deleted
        return Drawn([], actions=[])
    spied = entering.draft.among(still_in)

    def pick_by(name: str) -> None:
        entering.change(lambda current: replace(current, by=name))

    def pick_base(name: str) -> None:
        entering.change(lambda current: replace(current, base=name))

    others = [(name, name) for name in still_in if name != spied.by]
    chips: list[ft.Control] = [
        choice_chips(t("Who spied?"), [(name, name) for name in still_in], spied.by, pick_by),
        choice_chips(t("On whose base?"), others, spied.base, pick_base),
    ]
    base = next(b for b in board.bases if b.owner == spied.base)
    state = scoring.state_as(entering.before, spy.State)
    preview = spy.RULES.preview(state, spied.event(spied.kind))

    def may(kind: str) -> bool:
        return preview.can_log(kind, spied.by, spied.base)

    def save(kind: str) -> None:
        entering.save_round(spied.event(kind))

    return Drawn(chips, actions=event_buttons(t, base, may, save))


def event_buttons(
    t: Translator, base: spy.Base, may: Callable[[str], bool], save: Callable[[str], None]
) -> list[ft.Control]:
    """What can happen in `base`: each event enabled as the engine's preview says it may be
    logged (`may`); `save` saves an event of its kind."""
    return [
        buttons.FilledButton(
            t("Found {target}", target=target_name(t, base.next_target or "")),
            icon=ft.Icons.SEARCH,
            height=52,
            disabled=not may("target"),
            on_click=lambda: save("target"),
        ),
        # Outlined, not tonal: a tonal button has the panel's own colour and vanishes into it.
        buttons.OutlinedButton(
            t("Lit a bomb"),
            icon=ft.Icons.LOCAL_FIRE_DEPARTMENT,
            height=52,
            disabled=not may("bomb-lit"),
            on_click=lambda: save("bomb-lit"),
        ),
        buttons.OutlinedButton(
            t("Lit bomb exploded"),
            icon=ft.Icons.DANGEROUS,
            height=52,
            disabled=not may("bomb-exploded"),
            on_click=lambda: save("bomb-exploded"),
        ),
    ]


def event_title(t: Translator, index: int, correcting: bool) -> str:
    if correcting:
        return t("Correct event {number}", number=index + 1)
    return t("What happened?")


def event_saved_message(t: Translator, after: scoring.Replay, index: int) -> str:
    """The event saved, as the table would say it ("Anna found Ben's Safe 1")."""
    log = board_of(after).log
    return describe(t, log[index]) if index < len(log) else t("Saved.")


ENTRY: RoundEntryOf[Spied, None] = RoundEntryOf(
    quick=Form(
        blank=blank_spied,
        of_round=lambda before, saved: spied_of(saved),
        read_kept=lambda before, entry: spied_of(entry),
        kept=lambda spied: spied.event(spied.kind),
        entered=entered_event,
        fields=event_fields,
    ),
    cards=None,
    was_quick=lambda saved: True,
    title=event_title,
    save_label=N_("Save"),  # not shown: each event button saves
    saved=event_saved_message,
    delete_label=N_("Delete event"),
    deleted=N_("Event deleted"),
    always_open=True,
)


def correction_of(at: AtTable, open_round: Callable[[int], None]) -> Callable[[int], None]:
    """Opening event `index`'s correction (asked first in a game of the history)."""

    def open_event(index: int) -> None:
        ask = asked_first(at, lambda: open_round(index))
        if ask is not None:
            ask()

    return open_event


@memo
@ft.component
def EventLog(
    t: Translator, log: tuple[spy.LoggedEvent, ...], edit: Callable[[int], None] | None
) -> ft.Control:
    """The events, last first; each a button that corrects it (`edit`), unless watching.
    Drawn again only when an event is logged or changed (not at each tap of the entry)."""
    if not log:
        return ft.Container()
    rows: list[ft.Control] = [heading(t("Events"))]
    if edit is not None:
        rows.append(note(t("Tap an event to correct or delete it.")))
    for index in reversed(range(len(log))):
        rows.append(
            ft.ListTile(
                leading=ft.Text(str(index + 1)),
                title=ft.Text(describe(t, log[index])),
                on_click=None if edit is None else (lambda _e, i=index, e=edit: e(i)),
            )
        )
    return ft.Column(rows, spacing=0)


def options_form(form: NewGameForm) -> list[ft.Control]:
    return []  # SPY has no options


OUT_IN_TURN = (N_("Out first"), N_("Out second"), N_("Out third"), N_("Out fourth"))


def made_of(t: Translator, result: scoring.Replay) -> dict[str, str]:
    """Who was out when (the last one in won), and who was put out by a lit bomb."""
    state = scoring.state_as(result, spy.State)
    said = {name: t("Last one in") for name in state.still_in}
    for order, name in enumerate(state.eliminated):
        said[name] = t(OUT_IN_TURN[order])
    for name, facts in result.player_facts.items():
        if facts["bombs_set_off"]:  # a lit bomb found puts its finder out
            said[name] += " · " + t("found a lit bomb")
    return said


VIEW = GameView(
    rules=spy.RULES,
    icon=ft.Icons.VISIBILITY,
    screen=SpyScreen,
    options_form=options_form,
    options_of=lambda seats, options: {},
    round_name=N_("event {number}"),
    totals_are_scores=False,  # places in the order players fell: the bases show who is in
    facts={"survived": N_("Times survived"), "bombs_set_off": N_("Bombs set off")},
    made_of=made_of,
    counted=lambda t, count: t.plural("{count} event", "{count} events", count),
    chart_title=N_("Places over the events"),
)
