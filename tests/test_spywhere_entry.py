"""Spywhere's end of the game in the one round entry (views/round_entry.py), as data: a draft
kept before the entry was shared reads back where it was left, and is kept the same way."""

from __future__ import annotations

import json

from builders import SCENARIOS

import scoring
from scoring import spywhere
from views.games._spywhere_quick import Tally
from views.games.spywhere import ENTRY, LaidOpen
from views.round_entry import Drafts, kept_of
from views.state import DETAILED

RECORD = {**json.loads((SCENARIOS / "spywhere-four-players.json").read_text()), "rounds": []}
NAMES = ["Anna", "Ben", "Carla", "Dirk"]


def test_a_draft_kept_by_the_spywhere_screen_before_reopens_on_its_step() -> None:
    before = scoring.replay(RECORD, stored=True)
    ending = spywhere.Ending.blank(before.table).with_passport("Anna", 0, "italy")
    tally = Tally.blank(NAMES).pressed("5", 18)
    # As the Spywhere screen kept it when it had a draft of its own.
    old = {"step": 2, "ending": ending.to_json(), "form": DETAILED, "tally": tally.to_json()}
    assert ENTRY.cards is not None
    laid = ENTRY.cards.read_kept(before, old)
    assert laid == LaidOpen(2, ending)
    assert ENTRY.quick.read_kept(before, old) == tally
    assert kept_of(ENTRY, Drafts(DETAILED, tally, laid)) == old  # and kept the same way


def test_a_kept_step_the_wizard_does_not_have_opens_its_last() -> None:
    before = scoring.replay(RECORD, stored=True)
    ending = spywhere.Ending.blank(before.table).to_json()
    assert ENTRY.cards is not None
    assert ENTRY.cards.read_kept(before, {"step": 9, "ending": ending}).step == 3
