"""Each player's colour: given in turn, chosen, kept in the roster and in backups,
given to players stored before colours, and drawn apart at a table."""

from __future__ import annotations

import json
from pathlib import Path

import flet as ft
import pytest
from builders import SCENARIOS

from storage import Store, backup
from storage import errors as err
from storage import store as store_module
from storage.colors import COLORS, fallback_color, next_color
from views.theme import drawn_apart
from views.widgets import color_chip


def colors_by_name(store: Store) -> dict[str, str]:
    return {p["name"]: p["color"] for p in store.players(include_archived=True)}


def test_new_players_get_the_colour_fewest_players_have(store: Store) -> None:
    for index in range(10):
        store.add_player(f"P{index}")
    given = [colors_by_name(store)[f"P{index}"] for index in range(10)]
    assert given[:6] == list(COLORS)  # six players, six colours, in the palette's order
    assert given[6:] == list(COLORS[:4])  # then each colour a second time, in the same order


def test_a_chosen_colour_is_kept_and_the_next_player_gets_the_least_used(store: Store) -> None:
    anna = store.add_player("Anna", color="green")
    assert anna["color"] == "green"
    assert store.add_player("Ben")["color"] == "blue"
    store.set_player_color(anna["id"], "blue")
    assert store.add_player("Carla")["color"] == "orange"  # blue is had twice now
    assert colors_by_name(store) == {"Anna": "blue", "Ben": "blue", "Carla": "orange"}


def test_archived_players_leave_their_colour_free(store: Store) -> None:
    gone = store.add_player("Anna")
    store.archive_player(gone["id"])
    assert store.add_player("Ben")["color"] == gone["color"]


def test_a_colour_outside_the_palette_is_refused_with_its_name(store: Store) -> None:
    anna = store.add_player("Anna")
    with pytest.raises(err.InvalidPlayer) as refused:
        store.set_player_color(anna["id"], "chartreuse")
    assert "chartreuse" in str(refused.value) and "blue" in str(refused.value)
    with pytest.raises(err.InvalidPlayer):
        store.add_player("Ben", color="#FF0000")
    assert colors_by_name(store) == {"Anna": "blue"}


def stored_before_colors(store: Store) -> None:
    """Close `store` and make its data as version 7 wrote it: players without colours."""
    store.close()
    main = store.folder / "debrief.json"
    data = json.loads(main.read_text())
    for doc in data["players"].values():
        del doc["color"]
    data["meta"]["schema"]["version"] = 7
    main.write_text(json.dumps(data), encoding="utf-8")


def test_players_stored_before_colours_are_given_them_by_name_once(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    for name in ("Carla", "anna", "Ben"):
        store.add_player(name)
    stored_before_colors(store)

    store = Store.open(folder)
    try:
        assert store.schema_version == store_module.SCHEMA_VERSION
        assert colors_by_name(store) == {"anna": "blue", "Ben": "orange", "Carla": "green"}
        assert store.notices == []
    finally:
        store.close()
    stored = json.loads((folder / "debrief.json").read_text())["players"].values()
    assert sorted(doc["color"] for doc in stored) == ["blue", "green", "orange"]


def test_a_colour_edited_into_the_file_by_hand_is_read_as_one_of_the_palette(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    store = Store.open(folder)
    anna = store.add_player("Anna")
    store.close()
    data = json.loads((folder / "debrief.json").read_text())
    data["players"][anna["id"]]["color"] = ["not", "a", "colour"]
    (folder / "debrief.json").write_text(json.dumps(data), encoding="utf-8")
    store = Store.open(folder)
    try:
        assert colors_by_name(store) == {"Anna": fallback_color(anna["id"])}
    finally:
        store.close()


def test_a_backup_keeps_each_players_colour(tmp_path: Path) -> None:
    source = Store.open(tmp_path / "one")
    source.add_player("Anna", color="pink")
    source.add_player("Ben", color="yellow")
    document = backup.export_backup(source)
    source.close()
    assert [p["color"] for p in document["players"]] == ["pink", "yellow"]

    target = Store.open(tmp_path / "two")
    try:
        target.add_player("Ben", color="sky")  # already here: the import changes nothing of Ben
        plan = backup.plan_import(target, document, "backup.json")
        backup.apply_import(target, plan)
        assert colors_by_name(target) == {"Anna": "pink", "Ben": "sky"}
    finally:
        target.close()


def test_players_of_a_backup_without_colours_are_given_them_in_turn(store: Store) -> None:
    store.add_player("Anna")  # blue
    record = json.loads((SCENARIOS / "spy-three-players.json").read_text())  # Anna, Ben, Carla
    document = {
        "format": "debrief-backup/1",
        "players": [{"name": "Ben"}],
        "games": [record],
    }
    backup.apply_import(store, backup.plan_import(store, document, "old.json"))
    assert colors_by_name(store) == {"Anna": "blue", "Ben": "orange", "Carla": "green"}


def test_a_table_draws_its_players_apart_keeping_each_ones_own_where_it_can() -> None:
    assert drawn_apart(["blue", "orange", "green"]) == ["blue", "orange", "green"]
    # The second "blue" takes the palette's first colour that nobody at the table wants.
    assert drawn_apart(["blue", "blue", "orange"]) == ["blue", "green", "orange"]
    # A name in no roster (an imported game) is given one in turn, apart from the others.
    assert drawn_apart([None, "blue", None]) == ["orange", "blue", "green"]
    six = drawn_apart(["sky"] * 6)
    assert six[0] == "sky" and len(set(six)) == 6


def test_the_colour_fewest_have_is_given_in_palette_order() -> None:
    assert next_color([]) == COLORS[0]
    assert next_color(["blue", "orange", "blue"]) == "green"
    assert next_color(["unknown"]) == COLORS[0]


def test_archived_players_stored_before_colours_do_not_take_a_colour_from_the_others(
    tmp_path: Path,
) -> None:
    """The migration gives colours as a new player is given one: archived players aside."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    gone = store.add_player("Aaron")
    store.archive_player(gone["id"])
    store.add_player("Anna")
    stored_before_colors(store)
    store = Store.open(folder)
    try:
        assert colors_by_name(store) == {"Aaron": "blue", "Anna": "blue"}
    finally:
        store.close()


def test_a_backup_player_whose_colour_is_null_is_given_one(store: Store) -> None:
    document = {"format": "debrief-backup/1", "players": [{"name": "Ben", "color": None}]}
    plan = backup.plan_import(store, document, "null.json")
    assert plan.errors == []
    backup.apply_import(store, plan)
    assert colors_by_name(store) == {"Ben": "blue"}


def test_a_chosen_colour_chip_rings_its_dot_in_the_colour_drawn_on_its_fill() -> None:
    """A dot alone on the chosen chip's primary fill stood out 1.1:1 to 1.7:1."""
    chosen = color_chip(ft.Text("Anna"), True, "#1F2AAE", on_click=lambda _: None)
    other = color_chip(ft.Text("Ben"), False, "#944000", on_click=lambda _: None)
    assert isinstance(chosen, ft.Chip) and isinstance(other, ft.Chip)
    assert isinstance(chosen.leading, ft.Container) and isinstance(other.leading, ft.Container)
    assert chosen.leading.border == ft.Border.all(2, ft.Colors.ON_PRIMARY)
    assert other.leading.border is None


@pytest.mark.parametrize(("said", "dark"), [("dark", True), ("light", False)])
def test_the_device_turning_dark_is_read_as_flets_client_sends_it(said: str, dark: bool) -> None:
    """Flet's web client sends a change of the device's brightness as its name alone, which
    Flet hands on as a plain event with that name as its `data`, not as a
    PlatformBrightnessChangeEvent: reading `brightness` failed, the theme never followed, and
    a reloaded page said "Something went wrong on this screen" (found reloading History)."""
    from types import SimpleNamespace

    from views.app import device_is_dark

    assert device_is_dark(SimpleNamespace(data=said)) is dark
    shade = ft.Brightness.DARK if dark else ft.Brightness.LIGHT
    assert device_is_dark(SimpleNamespace(brightness=shade, data=None)) is dark
