"""Two scorers, one round, through the app's state: what another device did to the
round an entry is for is found, named and shown; each choice gives the record it says; no round
is stored twice and no entry is renumbered behind its player's back."""

from __future__ import annotations

from typing import Any

import pytest
from builders import FOUR

from storage import Store
from views.app import round_name_of
from views.conflicts import (
    CORRECTED,
    DELETED,
    FINISHED,
    KEEP,
    NEXT,
    REPLACE,
    SAVED,
    find_conflict,
)
from views.state import AppState, Overtaken

OPTIONS = {"first_dealer": "Anna", "variants": []}
EVEN = {"points": dict.fromkeys(FOUR, 15)}
THEIRS = {"points": {"Anna": 18, "Ben": 20, "Carla": 20, "Dirk": 2}}
MINE = {"points": {"Anna": 10, "Ben": 20, "Carla": 20, "Dirk": 10}}


@pytest.fixture
def game_id(store: Store) -> str:
    """Black Spy at deal 4 (three deals saved)."""
    record = store.create_game("black-spy", [{"name": name} for name in FOUR], OPTIONS)
    for _ in range(3):
        store.append_round(str(record["meta"]["id"]), EVEN)
    return str(record["meta"]["id"])


def device(store: Store, game_id: str, name: str) -> AppState:
    """A device's tab on the game, named, the game drawn (as the table screen does)."""
    state = AppState.load(store, "/", device=name, tab=name, round_name_of=round_name_of)
    state.named(name)
    state.game_at(game_id)
    return state


def entering(state: AppState, game_id: str, index: int | None, points: Any) -> None:
    """An entry of round `index` (None: a new one) with something typed in it."""
    state.keep_draft(game_id, index, {"piles": points["points"]})


def rounds(store: Store, game_id: str) -> list[Any]:
    return list(store.load_game(game_id)["rounds"])


def test_a_deal_saved_first_elsewhere_is_shown_at_once_named_and_the_entry_keeps_its_number(
    store: Store, game_id: str
) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(host, game_id, None, THEIRS)
    entering(phone, game_id, None, MINE)
    host.save_round(game_id, None, THEIRS)
    conflict = phone.conflict(game_id)  # before the phone's Save: at once
    assert conflict is not None
    assert (conflict.did, conflict.who, conflict.index, conflict.theirs) == (
        SAVED,
        "Host",
        3,
        THEIRS,
    )
    assert conflict.choices(next_possible=True) == [KEEP, REPLACE, NEXT]
    with pytest.raises(Overtaken) as refused:  # a Save now writes nothing
        phone.save_round(game_id, None, MINE)
    assert refused.value.conflict == conflict
    assert phone.refusal(refused.value) == ["Choose above what becomes of your entry."]
    assert rounds(store, game_id)[3:] == [THEIRS]
    assert phone.conflict(game_id) == conflict  # still there: never renumbered unseen
    assert host.conflict(game_id) is None


@pytest.mark.parametrize(
    ("choice", "after"), [(KEEP, [THEIRS]), (REPLACE, [MINE]), (NEXT, [THEIRS, MINE])]
)
def test_each_choice_gives_the_record_it_says_and_ends_the_entry(
    store: Store, game_id: str, choice: str, after: list[Any]
) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(phone, game_id, None, MINE)
    host.save_round(game_id, None, THEIRS)
    conflict = phone.conflict(game_id)
    assert conflict is not None
    phone.resolve(game_id, conflict, choice, MINE)
    assert rounds(store, game_id)[3:] == after
    assert phone.draft(game_id) is None
    assert phone.conflict(game_id) is None


def test_a_choice_made_on_an_old_game_is_refused_and_shows_the_newer_conflict(
    store: Store, game_id: str
) -> None:
    """Between the conflict shown and the choice, the host corrected its deal again: replacing
    it must not overwrite what the phone never saw."""
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(phone, game_id, None, MINE)
    host.save_round(game_id, None, THEIRS)
    seen = phone.conflict(game_id)
    assert seen is not None
    again = {"points": {"Anna": 0, "Ben": 20, "Carla": 20, "Dirk": 20}}
    host.game_at(game_id)
    host.save_round(game_id, 3, again)
    with pytest.raises(Overtaken):
        phone.resolve(game_id, seen, REPLACE, MINE)
    assert rounds(store, game_id)[3:] == [again]
    newer = phone.conflict(game_id)
    assert newer is not None and (newer.did, newer.theirs) == (CORRECTED, again)


def test_a_correction_of_a_deal_another_device_deleted_can_be_put_back(
    store: Store, game_id: str
) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(host, game_id, 2, MINE)
    phone.delete_round(game_id, 2)
    conflict = host.conflict(game_id)
    assert conflict is not None
    assert (conflict.did, conflict.who, conflict.index, conflict.theirs) == (
        DELETED,
        "Ben's phone",
        2,
        None,
    )
    assert conflict.choices(next_possible=True) == [KEEP, REPLACE]  # a correction: no next
    host.resolve(game_id, conflict, REPLACE, MINE)
    assert rounds(store, game_id) == [EVEN, EVEN, MINE]


def test_a_correction_overtaken_by_another_correction_is_shown_with_theirs(
    store: Store, game_id: str
) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(host, game_id, 1, MINE)
    phone.save_round(game_id, 1, THEIRS)
    conflict = host.conflict(game_id)
    assert conflict is not None and (conflict.did, conflict.theirs) == (CORRECTED, THEIRS)
    host.resolve(game_id, conflict, KEEP, MINE)
    assert rounds(store, game_id) == [EVEN, THEIRS, EVEN]


def test_a_change_to_another_round_is_no_conflict_and_says_who_made_it(
    store: Store, game_id: str
) -> None:
    """The phone corrects deal 1 while the host enters deal 4: the host's Save is refused
    once (the rounds before it changed), named, and the entry goes on as deal 4."""
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(host, game_id, None, MINE)
    phone.save_round(game_id, 0, THEIRS)
    assert host.conflict(game_id) is None
    with pytest.raises(Overtaken) as refused:
        host.save_round(game_id, None, MINE)
    assert host.refusal(refused.value) == [
        "Ben's phone corrected deal 1 in the meantime. Your entry is kept: check it, then "
        "save it again."
    ]
    host.save_round(game_id, None, MINE)
    assert rounds(store, game_id) == [THEIRS, EVEN, EVEN, MINE]


def test_another_devices_undo_of_the_round_is_a_conflict_too(store: Store, game_id: str) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    phone.save_round(game_id, 2, THEIRS)
    host.game_at(game_id)
    entering(host, game_id, 2, MINE)
    phone.game_at(game_id)
    phone.undo(game_id)  # deal 3 as it was before the phone's correction
    conflict = host.conflict(game_id)
    assert conflict is not None
    assert (conflict.what, conflict.did, conflict.theirs) == ("undo", CORRECTED, EVEN)


def test_this_tabs_own_changes_are_never_a_conflict() -> None:
    draft = {"round": None, "at": 3, "base": 5, "entry": {}}
    own = {"what": "save", "index": 3, "device": "d", "tab": "t", "rev": 6}
    four = [EVEN, EVEN, EVEN, THEIRS]
    assert find_conflict(draft, [own], four, 6, "d", "t") is None
    other_tab = {**own, "tab": "u"}
    found = find_conflict(draft, [other_tab], four, 6, "d", "t")
    assert found is not None and found.same_device


def test_a_round_saved_elsewhere_and_undone_again_is_no_conflict() -> None:
    draft = {"round": None, "at": 3, "base": 5, "entry": {}}
    saved = {"what": "save", "index": 3, "device": "x", "tab": "x", "rev": 6}
    undone = {"what": "undo", "index": 3, "did": "remove", "device": "x", "tab": "x", "rev": 7}
    assert find_conflict(draft, [saved, undone], [EVEN, EVEN, EVEN], 7, "d", "t") is None


def test_the_latest_changes_are_kept_beside_the_game_with_their_revisions(
    store: Store, game_id: str
) -> None:
    base = store.revision(game_id)
    store.append_round(game_id, EVEN, base, {"what": "save", "index": 3, "name": "A"})
    store.remove_round(game_id, 0, base + 1, {"what": "delete", "index": 0, "name": "B"})
    changes = store.changes_since(game_id, base)
    assert [(c["what"], c["name"], c["rev"]) for c in changes] == [
        ("save", "A", base + 1),
        ("delete", "B", base + 2),
    ]
    assert store.changes_since(game_id, base + 2) == []
    for number in range(30):
        store.set_notes(game_id, f"note {number}", {"what": "notes"})
    assert len(store.changes_since(game_id, 0)) == 20  # only the latest are kept


def test_a_phone_back_in_a_new_session_finds_the_conflict_from_its_kept_draft(
    store: Store, game_id: str
) -> None:
    """Away longer than its session is kept (a minute), a phone comes back in a new one: its
    draft, kept on the server per device, still says what the entry was begun on."""
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(phone, game_id, None, MINE)
    host.save_round(game_id, None, THEIRS)
    back = AppState.load(store, "/", device="Ben's phone", tab="new", round_name_of=round_name_of)
    back.named("Ben's phone")
    conflict = back.conflict(game_id)
    assert conflict is not None and (conflict.who, conflict.index) == ("Host", 3)
    back.resolve(game_id, conflict, REPLACE, MINE)
    assert rounds(store, game_id)[3:] == [MINE]


def panel_texts(state: AppState, game_id: str, entered: Any, editing: int) -> list[str]:
    """What the conflict panel the entry draws for `entered` says, a text each."""
    found: list[str] = []

    def walk(control: Any) -> None:
        value = getattr(control, "value", None)
        if isinstance(value, str):
            found.append(value)
        for child in getattr(control, "controls", None) or []:
            walk(child)
        content = getattr(control, "content", None)
        if content is not None and not isinstance(content, str):
            walk(content)

    walk(conflict_panel_of(state, game_id, entered, editing))
    return found


def conflict_panel_of(state: AppState, game_id: str, entered: Any, editing: int) -> Any:
    """The conflict panel the entry draws for `entered`."""
    import flet as ft

    import scoring
    from views.games import AtTable
    from views.games.black_spy import ENTRY
    from views.round_entry import Shown, conflict_panel

    game = state.game_at(game_id)
    at = AtTable(state, game_id, scoring.game_record(game.record), game.result, None)
    conflict = state.conflict(game_id)
    assert conflict is not None
    leave = lambda: None  # noqa: E731
    reopen = lambda index: None  # noqa: E731
    shown = Shown(
        at, ENTRY, editing, at.before(editing), leave, leave, ft.Ref(), None, "", leave, reopen
    )
    return conflict_panel(shown, conflict, entered, lambda choice, conflict: None)


def panel_of(state: AppState, game_id: str, entered: Any, editing: int) -> list[Any]:
    """The conflict panel the entry draws for `entered`: its buttons, as controls."""
    import flet as ft

    panel = conflict_panel_of(state, game_id, entered, editing)
    found: list[Any] = []

    def walk(control: Any) -> None:
        if isinstance(control, (ft.FilledButton, ft.OutlinedButton)):
            found.append(control)
        for child in getattr(control, "controls", None) or []:
            walk(child)
        content = getattr(control, "content", None)
        if content is not None and not isinstance(content, str):
            walk(content)

    walk(panel)
    return found


def panel_conflict(state: AppState, game_id: str) -> Any:
    conflict = state.conflict(game_id)
    assert conflict is not None
    return conflict


def test_a_choice_that_would_save_an_incomplete_entry_cannot_be_tapped(
    store: Store, game_id: str
) -> None:
    """The entry is not a valid deal (yet): "Put mine back" and "Save mine as ..." would only
    be refused; keeping theirs is the one choice."""
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    broken = {"points": {"Anna": 10}}
    entering(host, game_id, 2, broken)
    phone.delete_round(game_id, 2)
    buttons = panel_of(host, game_id, broken, 2)
    assert [(b.content, bool(b.disabled)) for b in buttons] == [
        ("Keep it deleted", False),
        ("Put mine back", True),
    ]
    entering(phone, game_id, None, MINE)
    host.resolve(game_id, panel_conflict(host, game_id), KEEP, broken)  # the host gives up
    host.game_at(game_id)
    host.save_round(game_id, None, THEIRS)  # and saves a new deal: the phone is in conflict
    buttons = panel_of(phone, game_id, MINE, -1)
    assert [(b.content, bool(b.disabled)) for b in buttons] == [
        ("Keep theirs", False),
        ("Replace theirs with mine", False),
        ("Save mine as deal 4", False),
    ]


def test_the_host_putting_the_game_into_the_history_is_shown_with_only_ok(
    store: Store, game_id: str
) -> None:
    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    entering(phone, game_id, None, MINE)
    host.finish(game_id)
    conflict = phone.conflict(game_id)
    assert conflict is not None
    assert (conflict.what, conflict.did, conflict.who) == ("finish", FINISHED, "Host")
    assert conflict.choices(next_possible=True) == [KEEP]
    buttons = panel_of(phone, game_id, MINE, -1)
    assert [b.content for b in buttons] == ["OK"]
    phone.resolve(game_id, conflict, KEEP, MINE)
    assert phone.draft(game_id) is None and rounds(store, game_id) == [EVEN] * 3


def test_the_same_entry_saved_twice_is_one_round(store: Store, game_id: str) -> None:
    """A second tap on Save that lands before the screen shows the first one's answer: the
    draft has ended with the first save, and the second is refused, nothing stored."""
    phone = device(store, game_id, "Ben's phone")
    entering(phone, game_id, None, MINE)
    phone.save_round(game_id, None, MINE)
    with pytest.raises(Overtaken) as refused:
        phone.save_round(game_id, None, MINE)  # the screen not drawn again in between
    assert rounds(store, game_id)[3:] == [MINE]
    assert phone.refusal(refused.value) == ["That was saved already; nothing was saved twice."]


class SessionGone:
    """A tab's page whose Flet session was destroyed (Flet raises when its session is asked
    for): a phone that left while another device saved."""

    @property
    def session(self) -> object:
        raise RuntimeError("An attempt to fetch destroyed session.")


def test_a_tab_whose_session_is_gone_lets_a_change_elsewhere_pass(store: Store) -> None:
    """Found by the browser tests' new look at the app's log: a change made while a guest's
    session was being destroyed (Stop sharing) reached that tab's listener, which asked the
    page for its session and raised ("a listener failed"). A tab that is gone redraws nothing."""
    gone = AppState.load(
        store,
        "/",
        device="phone",
        tab="gone",
        page=SessionGone(),
        round_name_of=round_name_of,  # type: ignore[arg-type]
    )
    gone.changed_elsewhere()
    gone.guests_changed()


def test_the_entry_form_is_remembered_per_device(store: Store, game_id: str) -> None:
    """After a guest's phone used Cards, the host's next deal (and its next game) opened in
    Cards: each device keeps its own choice, for the game and for the kind of game."""
    from views.state import DETAILED, QUICK

    host, phone = device(store, game_id, "Host"), device(store, game_id, "Ben's phone")
    phone.set_entry_mode(game_id, "black-spy", DETAILED)
    assert phone.entry_mode(game_id, "black-spy") == DETAILED
    assert host.entry_mode(game_id, "black-spy") == QUICK
    other = store.create_game("black-spy", [{"name": name} for name in FOUR], OPTIONS)
    assert host.entry_mode(str(other["meta"]["id"]), "black-spy") == QUICK
    assert phone.entry_mode(str(other["meta"]["id"]), "black-spy") == DETAILED
