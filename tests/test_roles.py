"""Every action that reads or changes stored data checks its caller where it happens, not only
the screen that shows its button: a guest's session (a forged event, a page field rewritten,
a screen it should never have drawn) gets nothing but the shared game.

The host may do everything; a scorer reads, enters, corrects and undoes the shared game's
rounds; a viewer reads the shared game. `AppState` marks each of its methods with who may call
it, and a test here makes sure no method is left without that decision.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from builders import FOUR, deal, pile

from storage import Store
from views.app import round_name_of
from views.conflicts import KEEP, SAVED, Conflict
from views.state import HOST, SCORER, VIEWER, AppState, NotAllowed, roles_of
from web.sharing import Sharing

# Methods that read or change no stored data of their own (or decide for themselves, tested
# below): navigation, notes on the screen, the translator, a viewer's PIN.
NO_STORED_DATA = {
    "load",
    "changed_elsewhere",
    "not_kept",  # the browser refused a change: said in a note, nothing read or written
    "reconnected",
    "shared_game",
    "followed_game",  # which game id a guest's screen shows: read through `game_at`
    "host_moved_on",
    "sharing",
    "ask_pin",
    "stop_asking_pin",
    "try_pin",
    "language",
    "dark",  # the theme this tab shows (its setting and the device's brightness)
    "t",
    "theme_mode",
    "go",
    "back",  # leaves what the screen has open, else goes Home (as `go`)
    "on_back",
    "off_back",
    "followed",
    "remember_route",
    "route_drawn",  # hands the route to `remember_route`, which writes for the host only
    "say",
    "say_undoable",
    "refusal",
    "attempt",
    "tried",
    "heard_wrong_pin",
    "check_caller",
    "named",  # this device's name: kept on the device, never in the data folder
    "shown_name",
    "name_wanted",
    "sharing_active",
    "guests_changed",
    "access_ended",
}
OPTIONS = {"first_dealer": "Anna", "variants": []}
FIRST_DEAL = deal(
    FOUR, Anna=pile(spies=6, colored=4), Ben=pile(low=6), Carla=pile(high=[8, 9, 10, 11])
)


class Door:
    async def open(self, pin: str) -> str:
        return "http://192.0.2.2:8551/?share=secret"

    async def end(self, session: Any) -> None:
        pass

    async def close(self, guest_sessions: list[Any]) -> None:
        pass


def in_thread(work: Callable[[], Any]) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def new_game(store: Store) -> str:
    players = [{"name": name} for name in FOUR]
    record = store.create_game("black-spy", players, OPTIONS)
    return str(record["meta"]["id"])


def at_table(store: Store, role: str) -> tuple[AppState, str, str]:
    """(a guest's state, the shared game, another game) — or the host's, for `HOST`."""
    shared, other = new_game(store), new_game(store)
    sharing = Sharing(Door())
    in_thread(lambda: asyncio.run(sharing.start()))
    sharing.show(shared)
    state = AppState.load(
        store,
        "/",
        device="phone",
        tab="tab",
        role=role,
        sharing=sharing,
        round_name_of=round_name_of,
    )
    return state, shared, other


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


def host_only_calls(state: AppState, shared: str) -> dict[str, Callable[[], object]]:
    """Each action only the host may take, called as a screen would (on the shared game too)."""
    players = [{"name": name} for name in FOUR]
    return {
        "start_game": lambda: state.start_game("black-spy", players, OPTIONS),
        "finish": lambda: state.finish(shared),
        "play_again": lambda: state.play_again(shared),
        "reopen": lambda: state.reopen(shared),
        "delete_game": lambda: state.delete_game(shared),
        "restore_game": lambda: state.restore_game(shared),
        "set_notes": lambda: state.set_notes(shared, "forged"),
        "players": lambda: state.players(),
        "add_player": lambda: state.add_player("Mallory"),
        "change_player": lambda: state.change_player("x", "Mallory", None),
        "archive_player": lambda: state.archive_player("x", True),
        "set_player_color": lambda: state.set_player_color("x", "blue"),
        "remember_birth_dates": lambda: state.remember_birth_dates({"Anna": "1990"}, FOUR),
        "plan_import": lambda: state.plan_import({"games": []}, "forged.json"),
        "apply_import": lambda: state.apply_import(None),  # type: ignore[arg-type]
        "export": lambda: state.export(),
        "export one game": lambda: state.export(shared),
        "needing_correction": lambda: state.needing_correction({}),
        "history_csv": lambda: state.history_csv(),
        "summaries": lambda: state.summaries(),
        "active_games": lambda: state.active_games(),
        "summary": lambda: state.summary(shared),
        "set_language": lambda: state.set_language("de"),
        "set_theme": lambda: state.set_theme("dark"),
        "data_folder": lambda: state.data_folder,
        "notices": lambda: state.notices,
        "dismiss_notices": lambda: state.dismiss_notices(),
        "start_sharing": lambda: in_thread(lambda: asyncio.run(state.start_sharing())),
        "stop_sharing": lambda: in_thread(lambda: asyncio.run(state.stop_sharing())),
        "show_to_guests": lambda: state.show_to_guests(shared),
    }


def scorer_calls(state: AppState, game: str) -> dict[str, Callable[[], object]]:
    """Each action on a game's rounds: the host's anywhere, a scorer's on the shared game."""
    return {
        "save_round": lambda: state.save_round(game, None, FIRST_DEAL),
        "delete_round": lambda: state.delete_round(game, 0),
        "undo": lambda: state.undo(game),
        "redo": lambda: state.redo(game),
        "keep_draft": lambda: state.keep_draft(game, None, {"piles": {}}),
        "discard_draft": lambda: state.discard_draft(game),
        "set_entry_mode": lambda: state.set_entry_mode(game, "black-spy", "detailed"),
        "conflict": lambda: state.conflict(game),
        "resolve": lambda: state.resolve(
            game, Conflict("save", SAVED, "", False, 0, True, None, 0), KEEP, {}
        ),
    }


def reader_calls(state: AppState, game: str) -> dict[str, Callable[[], object]]:
    """What a game's screen reads to draw it (a viewer's phone draws the same screen)."""
    return {
        "game_at": lambda: state.game_at(game),
        "is_active": lambda: state.is_active(game),
        "draft": lambda: state.draft(game),
        "history": lambda: state.history(game),
        "steps": lambda: state.steps(game),
        "entry_mode": lambda: state.entry_mode(game, "black-spy"),
        "ended_at": lambda: state.ended_at(game),
        "bgstats_link": lambda: state.bgstats_link(game),
        "table_colors": lambda: state.table_colors(game),
    }


def test_every_method_of_the_app_state_says_who_may_call_it() -> None:
    undecided = [
        name
        for name, member in vars(AppState).items()
        if not name.startswith("_")
        and (inspect.isfunction(member) or isinstance(member, property))
        and name not in NO_STORED_DATA
        and not roles_of(member)
    ]
    assert not undecided, f"no decision on who may call: {undecided}"


@pytest.mark.parametrize("role", [VIEWER, SCORER])
def test_a_guest_can_take_none_of_the_hosts_actions(store: Store, role: str) -> None:
    state, shared, _ = at_table(store, role)
    before = files_of(store.folder)
    for name, call in host_only_calls(state, shared).items():
        with pytest.raises(NotAllowed):
            call()
            pytest.fail(f"a {role} could call {name}")
    assert files_of(store.folder) == before


def test_a_viewer_reads_the_shared_game_and_changes_nothing(store: Store) -> None:
    state, shared, other = at_table(store, VIEWER)
    for call in reader_calls(state, shared).values():
        call()
    before = files_of(store.folder)
    for name, call in {**reader_calls(state, other), **scorer_calls(state, shared)}.items():
        with pytest.raises(NotAllowed):
            call()
            pytest.fail(f"a viewer could call {name}")
    assert files_of(store.folder) == before


def test_a_scorer_enters_the_shared_games_rounds_and_no_other_game(store: Store) -> None:
    state, shared, other = at_table(store, SCORER)
    for call in scorer_calls(state, shared).values():
        call()  # allowed: none raises NotAllowed
    assert store.load_game(shared)["rounds"] == []  # saved, deleted, undone, redone: deleted
    store.settle()  # the draft kept and discarded is written just after (storage.drafts)
    before = files_of(store.folder)
    for name, call in {**reader_calls(state, other), **scorer_calls(state, other)}.items():
        with pytest.raises(NotAllowed):
            call()
            pytest.fail(f"a scorer could call {name} on another game")
    assert files_of(store.folder) == before


def test_a_guest_is_stopped_when_the_host_opens_another_game(store: Store) -> None:
    """The shared game is decided at each call: a scorer's old screen cannot save into the
    game the host has left."""
    state, shared, other = at_table(store, SCORER)
    assert state._sharing is not None
    state._sharing.show(other)
    with pytest.raises(NotAllowed):
        state.save_round(shared, None, FIRST_DEAL)
    state.save_round(other, None, FIRST_DEAL)


@pytest.mark.parametrize("role", [VIEWER, SCORER])
def test_a_guest_keeps_reading_the_game_it_watched_and_follows_the_host_with_a_tap(
    store: Store, role: str
) -> None:
    """When the host opens another game (Play again), a guest's screen keeps the game it
    showed (its result) and may read it, never change it; a game never shown stays closed;
    "Follow" moves it to the host's game, and the old one closes (and a game the host puts in
    the bin closes too)."""
    state, first, second = at_table(store, role)
    assert state._sharing is not None
    assert state.followed_game == first and state.host_moved_on is None
    state._sharing.show(second)
    assert state.followed_game == first and state.host_moved_on == second
    for call in reader_calls(state, first).values():
        call()
    never_shown = new_game(store)
    before = files_of(store.folder)
    for name, call in {
        **scorer_calls(state, first),
        **reader_calls(state, never_shown),
    }.items():
        with pytest.raises(NotAllowed):
            call()
            pytest.fail(f"a guest could call {name}")
    assert files_of(store.folder) == before
    state.follow_host()
    assert state.followed_game == second and state.host_moved_on is None
    with pytest.raises(NotAllowed):
        state.game_at(first)
    host, _, _ = at_table(store, HOST)
    with pytest.raises(NotAllowed):
        host.follow_host()
    state._sharing.show(first)  # the host opens the old game again, then another one
    state.follow_host()
    state._sharing.show(never_shown)
    assert state.followed_game == first
    host.delete_game(first)  # in the bin: the guest's screen moves on
    assert state.followed_game == never_shown


def test_the_host_may_do_everything(store: Store) -> None:
    state, shared, other = at_table(store, HOST)
    for game in (shared, other):  # (a screen draws the game anew after each change)
        for call in {**scorer_calls(state, game), **reader_calls(state, game)}.values():
            call()
    state.start_game("black-spy", [{"name": n} for n in FOUR], OPTIONS)
    state.add_player("Mallory")
    assert state.export()["games"] and [p["name"] for p in state.players()] == ["Mallory"]


def test_a_scorer_whose_access_the_host_ended_can_do_nothing_more_in_its_session(
    store: Store,
) -> None:
    """Its role was decided when it connected; the host's End access decides again: every
    action checks it, the session's own screen included (a phone kept on its old screen)."""
    state, shared, _ = at_table(store, SCORER)
    sharing = state._sharing
    assert sharing is not None
    state.save_round(shared, None, FIRST_DEAL)  # a scorer, until the host ends it
    in_thread(lambda: asyncio.run(sharing.end_access("phone")))
    before = files_of(store.folder)
    for name, call in {**scorer_calls(state, shared), **reader_calls(state, shared)}.items():
        with pytest.raises(NotAllowed):
            call()
            pytest.fail(f"an ended phone could call {name}")
    assert files_of(store.folder) == before
