"""A round being entered is answered by the engine's preview: what it allows, saving accepts;
what it refuses, saving refuses. Generated valid games, generated drafts (valid
ones and damaged ones), checked against `scoring.check_round`, the save's own check."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import generators
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import walk

import scoring
from scoring import black_spy, kompromat, spy, spywhere
from scoring.drafts import DraftProblem

PREVIEW_SETTINGS = settings(max_examples=80, deadline=None)
KOMPROMAT_SETTINGS = settings(max_examples=40, deadline=None)  # a game takes longer to make
randoms = st.randoms(use_true_random=False)
Record = dict[str, Any]
ROUND = re.compile(r"^rounds\[\d+\]\.?")
OWN_PART = re.compile(r"^\w+\.(\w+)")  # a part keyed by a player: the player's own entry
# What a damaged draft may hold instead of a value: other types, numbers out of range, names.
ODD_VALUES: list[Any] = [None, -1, 0, 1, 2, 3, 7, 12, 19, 40, 80, 81, 2.5, "x", [], {}, True]


def prefix(rng: random.Random, rec: Record) -> tuple[Record, Any]:
    """The record cut before one of its rounds (or whole: a finished game refuses any round),
    and that round: the state before a round being entered, and a valid draft of it."""
    rounds = rec["rounds"]
    cut = rng.randrange(len(rounds) + 1)
    before = {**rec, "rounds": rounds[:cut]}
    return before, copy.deepcopy(rounds[cut]) if cut < len(rounds) else None


def damaged(rng: random.Random, draft: Any, names: list[str]) -> Any:
    """`draft` with one to three parts left out or replaced by an odd value or a name (valid
    sometimes, mostly not): what a table may have entered so far."""
    draft = copy.deepcopy(draft)
    for _ in range(rng.randint(1, 3)):
        places = [loc for loc, _ in walk(draft) if loc]
        if not places:
            return draft
        depth = rng.choice(sorted({len(loc) for loc in places}))  # the whole part as often
        location = rng.choice([loc for loc in places if len(loc) == depth])
        parent = draft
        for key in location[:-1]:
            parent = parent[key]
        if rng.random() < 0.35:
            del parent[location[-1]]
        else:
            parent[location[-1]] = rng.choice([*ODD_VALUES, *names, "nobody"])
    return draft


def said(errors: list[scoring.RecordError]) -> list[tuple[str, str, str]]:
    """Errors as (kind, part of the round, message), in a fixed order."""
    return sorted((e.code, ROUND.sub("", e.path), e.message) for e in errors)


def answered(found: tuple[DraftProblem, ...]) -> list[tuple[str, str, str]]:
    return sorted((p.error.code, p.part, p.error.message) for p in found)


def assert_preview_is_the_check(before: Record, draft: Any, preview: Any) -> None:
    """The preview's missing and problems are exactly check_round's errors (same kinds, parts
    and messages); it may be saved exactly when check_round finds nothing; each problem is
    keyed to a seated player or to the round; and a saveable draft's totals are the replay's."""
    errors = scoring.check_round(before, draft)
    assert answered(preview.missing + preview.problems) == said(errors)
    assert preview.may_save == (errors == [])
    names = {p["name"] for p in before["players"]}
    for found in preview.missing + preview.problems:
        keyed = OWN_PART.match(found.part)  # cards.Ben.black_spies: Ben's pile
        if keyed and keyed.group(1) in names:
            assert found.player == keyed.group(1), found
        else:
            assert found.player is None or found.player in names, found
    if preview.may_save:
        after = scoring.replay({**before, "rounds": [*before["rounds"], draft]})
        assert preview.totals == after.totals
        assert tuple(preview.winners) == tuple(after.winners)
    else:
        assert preview.totals is None


def state_of(before: Record) -> Any:
    return scoring.replay(before).state


def names_of(rec: Record) -> list[str]:
    return [p["name"] for p in rec["players"]]


# --- Black Spy -----------------------------------------------------------------------------


def black_spy_draft(rng: random.Random, rec: Record) -> Any:
    """A valid deal for this game (the next one, or any), sometimes damaged."""
    _, deal = prefix(rng, rec)
    options = rec["options"]
    if deal is None:
        capture = "capture-or-release" in options["variants"]
        deal = generators.black_spy_deal(rng, names_of(rec), capture, 0.2)
        if rng.random() < 0.4:
            deal = generators.as_points_form(deal, "no-good-spies" in options["variants"])
    return damaged(rng, deal, names_of(rec)) if rng.random() < 0.6 else deal


@PREVIEW_SETTINGS
@given(randoms)
def test_black_spy_preview_says_what_saving_says(rng: random.Random) -> None:
    rec = generators.black_spy_record(rng, max_deals=12, moon_chance=0.2)
    if rng.random() < 0.3:  # Going Back with a low end value: halvings are frequent
        rec = going_back_game(rng, names_of(rec))
    before, _ = prefix(rng, rec)
    draft = black_spy_draft(rng, rec)
    preview = black_spy.RULES.preview(state_of(before), draft)
    assert_preview_is_the_check(before, draft, preview)
    if preview.may_save:
        after = scoring.replay({**before, "rounds": [*before["rounds"], draft]})
        assert preview.ends_game == after.finished
        assert preview.points == after.state.deals[-1].points
        assert preview.halved == after.state.deals[-1].halved


def going_back_game(rng: random.Random, names: list[str]) -> Record:
    """A Black Spy game with Going Back to a low end value, where deals often hit it or its
    half exactly."""
    options = {
        "first_dealer": names[0],
        "variants": ["going-back"],
        "end_value": rng.choice([20, 30, 40]),
        "halves": rng.choice(black_spy.HALVES),
    }
    rec = generators.envelope("black-spy", [{"name": n} for n in names], options)
    deal = lambda _: generators.black_spy_deal(rng, names, False, 0.1)  # noqa: E731
    return generators.play_until_over(rec, deal, 12)


@PREVIEW_SETTINGS
@given(randoms)
def test_black_spy_preview_totals_are_the_replays_going_back_included(rng: random.Random) -> None:
    """Deals that often hit a low end value or its half exactly: the preview's totals, who
    was halved and the end are the replay's."""
    names = generators.NAMES[: rng.randint(3, 6)]
    rec = going_back_game(rng, names)
    before, deal = prefix(rng, rec)
    if deal is None:
        return
    preview = black_spy.RULES.preview(state_of(before), deal)
    after = scoring.replay({**before, "rounds": [*before["rounds"], deal]})
    assert preview.may_save
    assert (preview.totals, preview.ends_game) == (after.totals, after.finished)
    assert preview.halved == after.state.deals[-1].halved


def without_pile(draft: Record, name: str) -> Record:
    form = "points" if "points" in draft else "cards"
    return {**draft, form: {n: v for n, v in draft[form].items() if n != name}}


@PREVIEW_SETTINGS
@given(randoms)
def test_black_spy_a_pile_the_preview_may_fill_is_filled_and_adds_up(rng: random.Random) -> None:
    """A pile left out: where the preview may fill it, what it says the others leave (cards:
    complete_round's pile) adds up with them; where it may not, the pile that would make the
    total is refused."""
    rec = generators.black_spy_record(rng, max_deals=0)
    before, names = rec, names_of(rec)
    variants = rec["options"]["variants"]
    deal = generators.black_spy_deal(rng, names, "capture-or-release" in variants, 0.2)
    if rng.random() < 0.4:
        deal = generators.as_points_form(deal, "no-good-spies" in variants)
    form = "points" if "points" in deal else "cards"
    left = rng.choice(names)
    others = [n for n in names if n != left]
    if rng.random() < 0.5:  # another pile counted wrong: too much, or too little
        wrong = rng.choice(others)
        if form == "points":
            deal[form][wrong] += rng.choice([-30, -5, 5, 40])
        else:
            part = rng.choice(["black_spies", "black_low", "colored_spies"])
            limit = black_spy.PART_LIMITS[part]  # each pile readable, together too many
            deal[form][wrong][part] = min(limit, deal[form][wrong][part] + rng.choice([1, 3]))
    draft = without_pile(deal, left)
    preview = black_spy.RULES.preview(state_of(before), draft)
    assert preview.left_out == (left,)
    assert not any(preview.may_fill[n] for n in others)  # only a pile left out is filled
    if form == "cards":
        rest = black_spy.left_over(
            {n: black_spy.read_pile(scoring.reader.Reader(), draft["cards"][n], "") for n in others}
        ).to_json()
        filled = {**draft, "cards": {**draft["cards"], left: rest}}
        if preview.may_fill[left]:
            assert preview.rests[left] == black_spy.read_pile(scoring.reader.Reader(), rest, "")
            done = scoring.complete_round(before, draft, left)
            assert done["cards"][left] == rest
        errors = scoring.check_round(before, filled)
        wrong = [e for e in errors if ".cards" in e.path]
    else:
        options = scoring.replay(before).setup.options
        rest_points = black_spy.counted_rest(options, {n: draft["points"][n] for n in others})
        if preview.may_fill[left]:
            assert preview.rests[left] == rest_points
        filled = {**draft, "points": {**draft["points"], left: rest_points}}
        errors = scoring.check_round(before, filled)
        wrong = [
            e
            for e in errors
            if isinstance(e, scoring.errors.PilesDoNotAddUp) or e.path.endswith(f"points.{left}")
        ]
    # Filled in where the preview may fill it, the piles add up and that pile is right;
    # where it may not, filling it is refused.
    if preview.may_fill[left]:
        assert wrong == [], [str(e) for e in wrong]
    else:
        assert errors != []


@PREVIEW_SETTINGS
@given(randoms)
def test_black_spy_the_moon_choice_is_asked_exactly_when_saving_needs_it(
    rng: random.Random,
) -> None:
    """Each choice the preview offers is saved; leaving it out is missing; where it offers
    none, a choice is refused."""
    rec = generators.black_spy_record(rng, max_deals=8, moon_chance=0.3)
    before = {**rec, "rounds": []}
    names = names_of(rec)
    capture = "capture-or-release" in rec["options"]["variants"]
    deal = generators.black_spy_deal(rng, names, capture, 0.5)
    if rng.random() < 0.4:
        deal = generators.as_points_form(deal, "no-good-spies" in rec["options"]["variants"])
    deal.pop("moon_choice", None)
    preview = black_spy.RULES.preview(state_of(before), deal)
    if preview.may_choose_moon:
        assert preview.moon_choices == ("give", "release")
        assert [p.error.code for p in preview.missing] == ["MoonChoiceRequired"]
        for choice in preview.moon_choices:
            assert scoring.check_round(before, {**deal, "moon_choice": choice}) == []
    else:
        assert preview.may_save
        refused = scoring.check_round(before, {**deal, "moon_choice": "give"})
        assert [e.code for e in refused] == ["MoonChoiceNotAllowed"]


# --- SPY -----------------------------------------------------------------------------------


@PREVIEW_SETTINGS
@given(randoms)
def test_spy_preview_says_what_saving_says(rng: random.Random) -> None:
    rec = generators.spy_record(rng)
    before, event = prefix(rng, rec)
    names = names_of(rec)
    if event is None or rng.random() < 0.5:
        event = {
            "event": rng.choice(spy.EVENTS),
            "by": rng.choice(names),
            "base": rng.choice(names),
        }
    draft = damaged(rng, event, names) if rng.random() < 0.4 else event
    preview = spy.RULES.preview(state_of(before), draft)
    assert_preview_is_the_check(before, draft, preview)
    if preview.may_save:
        after = scoring.replay({**before, "rounds": [*before["rounds"], draft]})
        assert preview.ends_game == after.finished
        assert preview.logged == after.state.log[-1]


@PREVIEW_SETTINGS
@given(randoms)
def test_spy_every_event_the_preview_allows_is_saved_and_no_other(rng: random.Random) -> None:
    rec = generators.spy_record(rng)
    before, _ = prefix(rng, rec)
    preview = spy.RULES.preview(state_of(before), {})
    names = names_of(rec)
    for kind in spy.EVENTS:
        for by in names:
            for base in names:
                event = {"event": kind, "by": by, "base": base}
                accepted = scoring.check_round(before, event) == []
                assert preview.can_log(kind, by, base) == accepted, event
    assert set(preview.may_log) <= set(preview.still_in)


# --- Spywhere ------------------------------------------------------------------------------


def spywhere_game(rng: random.Random) -> tuple[Record, Record]:
    """An empty Spywhere game and a valid ending for it (laid open)."""
    rec = generators.spywhere_record(rng, counts_form=0)
    before = {**rec, "rounds": []}
    options = scoring.replay(before).setup.options
    ending = generators.spywhere_ending(rng, names_of(rec), list(options.in_play))
    return before, ending


@PREVIEW_SETTINGS
@given(randoms)
def test_spywhere_preview_says_what_saving_says(rng: random.Random) -> None:
    before, ending = spywhere_game(rng)
    if rng.random() < 0.3:
        ending = generators.as_counts_form(ending)
    draft = damaged(rng, ending, names_of(before)) if rng.random() < 0.6 else ending
    if rng.random() < 0.1:  # the ending saved already: no round may follow
        before = {**before, "rounds": [ending]}
    preview = spywhere.RULES.preview(state_of(before), draft)
    assert_preview_is_the_check(before, draft, preview)
    if preview.may_save:
        assert preview.totals is not None
        assert preview.points == {n: int(t) for n, t in preview.totals.items()}


@PREVIEW_SETTINGS
@given(randoms)
def test_spywhere_every_passport_guess_and_end_the_preview_allows_is_saved_and_no_other(
    rng: random.Random,
) -> None:
    before, ending = spywhere_game(rng)
    names = names_of(before)
    preview = spywhere.RULES.preview(state_of(before), ending)
    assert preview.may_save
    in_play = scoring.replay(before).setup.options.in_play
    name = rng.choice(names)
    slot = rng.randrange(len(ending["passports"][name]))
    for nationality in in_play:
        changed = copy.deepcopy(ending)
        changed["passports"][name][slot] = nationality
        accepted = scoring.check_round(before, changed) == []
        assert (nationality in preview.passport_choices[name][slot]) == accepted
    guesser = rng.choice(names)
    opponent = rng.choice([n for n in names if n != guesser])
    made = ending["identifications"][guesser].get(opponent, [])
    slot = rng.randrange(min(len(made) + 1, spywhere.passports_each(len(names))))
    for nationality in in_play:
        changed = copy.deepcopy(ending)
        guesses = changed["identifications"][guesser].setdefault(opponent, [])
        guesses[slot : slot + 1] = [nationality]
        accepted = scoring.check_round(before, changed) == []
        assert (nationality in preview.guess_choices[guesser][opponent][slot]) == accepted
    for name in names:
        accepted = scoring.check_round(before, {**ending, "ended_by": name}) == []
        assert preview.may_end[name] == accepted
    counted = spywhere.RULES.preview(state_of(before), generators.as_counts_form(ending))
    assert all(counted.may_end.values())


# --- Kompromat -----------------------------------------------------------------------------


def kompromat_round(rng: random.Random) -> tuple[Record, Record, list[kompromat.MissionPreview]]:
    """A Kompromat game cut before one of its rounds, that round, and its previews."""
    rec = generators.kompromat_record(rng)
    cut = rng.randrange(len(rec["rounds"]))
    before = {**rec, "rounds": rec["rounds"][:cut]}
    draft = copy.deepcopy(rec["rounds"][cut])
    result = scoring.replay(before)
    previews = kompromat.RULES.preview(
        result.state, kompromat.RoundDraft.from_json(draft, result.table)
    )
    return before, draft, previews


def tokens_after(before: Record, draft: Record) -> list[dict[str, int]]:
    """Each resolved mission's tokens after it, as the replay saved it."""
    played = scoring.standings({**before, "rounds": [*before["rounds"], draft]})
    return [mission["tokens"] for mission in played["missions"][-1]]


# Cards that make exactly 21 (a 1/11 at its best value), one of them fits what a hand has left.
TWENTY_ONES = (
    ["10", "1/11"],
    ["9", "2", "10"],
    ["8", "3", "10"],
    ["7", "7", "7"],
    ["6", "5", "10"],
)


def at_21(rng: random.Random, draft: Record, index: int, names: list[str]) -> Record:
    """`draft` with a player's cards on mission `index` replaced by cards of their hand that
    make exactly 21 (when some do), so that a perfect return can be tried."""
    name = rng.choice(names)
    mission = draft["missions"][index]
    if "plays" not in mission:
        return draft
    elsewhere = [
        generators.as_label(card)
        for number, other in enumerate(draft["missions"])
        if number != index
        for card in other.get("plays", {}).get(name, [])
    ]
    left = kompromat.deck_left(elsewhere)
    for cards in TWENTY_ONES:
        if all(left.get(card, 0) >= cards.count(card) for card in cards):
            changed = copy.deepcopy(draft)
            plays = changed["missions"][index]["plays"]
            plays[name] = [kompromat.card_json(card) for card in cards]
            return changed
    return draft


@KOMPROMAT_SETTINGS
@given(randoms)
def test_kompromat_a_token_returned_where_the_preview_allows_is_saved_and_counts(
    rng: random.Random,
) -> None:
    """A player the preview finds at 21 may list a perfect return: saved; it gives a token
    back exactly where `may_return` says they hold one. Anyone not at 21: refused."""
    before, draft, _ = kompromat_round(rng)
    names = names_of(before)
    index = rng.randrange(len(draft["missions"]))
    draft = at_21(rng, draft, index, names)
    result = scoring.replay(before)
    preview = kompromat.RULES.preview(
        result.state, kompromat.RoundDraft.from_json(draft, result.table)
    )[index]
    if preview.ended or scoring.check_round(before, draft):
        return
    for name in names:
        changed = copy.deepcopy(draft)
        mission = changed["missions"][index]
        others = [n for n in mission.get("perfect_return", []) if n != name]
        mission["perfect_return"] = others
        without = copy.deepcopy(changed)
        mission["perfect_return"] = [*others, name]
        errors = scoring.check_round(before, changed)
        if name not in preview.perfect:
            assert [e.code for e in errors] == ["NotPerfect"]
            continue
        assert errors == []
        assert scoring.check_round(before, without) == []
        given_back = (
            tokens_after(before, without)[index][name] - tokens_after(before, changed)[index][name]
        )
        assert given_back == (1 if name in preview.may_return else 0)


@KOMPROMAT_SETTINGS
@given(randoms)
def test_kompromat_a_card_the_preview_allows_is_saved_and_none_after_a_bust(
    rng: random.Random,
) -> None:
    """A card still in hand laid where `may_add` allows (by a player not returning a token
    there) is saved; any card after a bust is refused."""
    before, draft, previews = kompromat_round(rng)
    index = rng.randrange(len(draft["missions"]))
    preview = previews[index]
    name = rng.choice(names_of(before))
    in_hand = [label for label, count in preview.left[name].items() if count > 0]
    mission = draft["missions"][index]
    if not in_hand or name in mission.get("perfect_return", []) or "plays" not in mission:
        return
    changed = copy.deepcopy(draft)
    cards = changed["missions"][index]["plays"].setdefault(name, [])
    cards.append(kompromat.card_json(rng.choice(in_hand)))
    errors = scoring.check_round(before, changed)
    if preview.may_add[name]:
        assert errors == [], [str(e) for e in errors]
    else:
        assert "CardAfterBust" in [e.code for e in errors]


@KOMPROMAT_SETTINGS
@given(randoms)
def test_kompromat_the_round_ends_where_the_preview_says_the_game_ends(rng: random.Random) -> None:
    """Cut after the mission the preview says ended the game (9 tokens), or after any later
    one, the round is saved (the later missions may be left out); cut before it, or before
    the fourth while nobody reached 9, it is refused."""
    before, draft, previews = kompromat_round(rng)
    played = kompromat.missions_played(previews)
    assert played == len(draft["missions"]) or previews[played - 1].ends_game
    for count in range(1, len(draft["missions"]) + 1):
        cut = {**draft, "missions": draft["missions"][:count]}
        accepted = scoring.check_round(before, cut) == []
        assert accepted == (count >= played), count
