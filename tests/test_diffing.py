"""views/diffing.py: the copy of Flet's walk over new controls does what Flet's own does."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterator
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls import object_patch
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import configure_encode_object_for_msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from views import diffing

# The source of the Flet method `diffing.configure_dataclass` copies, as it was copied. A Flet
# whose method differs fails here: compare the two again, then record the new one.
COPIED_FROM = "fbbb21ab0ef5bcaa78b15d04710e34bc0c2fdfd9b9f310915cca91f7f516ca37"


def test_the_copy_is_of_this_flets_method() -> None:
    source = inspect.getsource(diffing.FLETS_OWN)
    assert hashlib.sha256(source.encode()).hexdigest() == COPIED_FROM
    assert ft.__version__ == diffing.FLET_VERSION


def test_the_app_uses_the_copy() -> None:
    from views.app import make_main

    make_main(None)
    assert object_patch.DiffBuilder._configure_dataclass is diffing.configure_dataclass


# A tree of controls as plain data, so that two equal trees can be built from it: a leaf is
# ("text", value, size, bold) or ("icon", size); ("box", child, padding, border, clickable),
# ("row", children, spacing) and ("column", children, col) hold others.
texts = st.tuples(
    st.just("text"),
    st.one_of(st.none(), st.text(max_size=5)),
    st.one_of(st.none(), st.integers(8, 30)),
    st.booleans(),
)
icons = st.tuples(st.just("icon"), st.one_of(st.none(), st.integers(8, 30)))


def holders(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    many = st.lists(children, max_size=4)
    return st.one_of(
        st.tuples(
            st.just("box"),
            st.one_of(st.none(), children),
            st.one_of(st.none(), st.integers(0, 20)),
            st.one_of(st.none(), st.integers(1, 4)),
            st.booleans(),
        ),
        st.tuples(st.just("row"), many, st.integers(0, 12)),
        st.tuples(st.just("column"), many, st.one_of(st.none(), st.integers(1, 12))),
    )


trees = st.recursive(st.one_of(texts, icons), holders, max_leaves=25)


def built(spec: Any) -> ft.Control:
    kind, *rest = spec
    if kind == "text":
        value, size, bold = rest
        text = ft.Text(size=size, weight=ft.FontWeight.BOLD if bold else None)
        text.value = value  # set after it was made: a change the walk puts behind it
        return text
    if kind == "icon":
        return ft.Icon(ft.Icons.STAR, size=rest[0])
    if kind == "box":
        child, padding, border, clickable = rest
        return ft.Container(
            content=None if child is None else built(child),
            padding=None if padding is None else ft.Padding.only(bottom=padding),
            border=None if border is None else ft.Border.only(bottom=ft.BorderSide(border)),
            on_click=(lambda: None) if clickable else None,
        )
    if kind == "row":
        children, spacing = rest
        return ft.Row([built(child) for child in children], spacing=spacing)
    children, col = rest
    return ft.Column([built(child) for child in children], col=None if col is None else {"xs": col})


def added(spec: Any, frozen: bool, walk: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """What adding the tree of `spec` to a page gives with `walk` as Flet's method: the
    message the browser gets (control ids numbered in order of appearance) and, for each
    control configured, in order, its type, its parent's place in that order and its flags."""
    monkeypatch.setattr(object_patch.DiffBuilder, "_configure_dataclass", walk)
    root = ft.Column([built(spec)])
    patch, controls, _ = object_patch.ObjectPatch.from_diff(
        None, root, control_cls=BaseControl, frozen=frozen
    )
    encode = configure_encode_object_for_msgpack(BaseControl)
    message = msgpack.unpackb(msgpack.packb(patch.to_message(), default=encode))
    places = {id(control): index for index, control in enumerate(controls)}
    described = []
    for control in controls:
        parent_ref = getattr(control, "_parent", None)
        parent = parent_ref() if parent_ref else None
        described.append(
            (
                type(control).__name__,
                places.get(id(parent)),
                getattr(control, "_frozen", None),
                getattr(control, "_initialized", None),
                dict(getattr(control, "_dirty", None) or {}),
            )
        )
    return numbered(message), described


def numbered(message: Any) -> Any:
    """`message` with each control id ("_i") replaced by its place among the ids seen."""
    ids: dict[int, int] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                key: ids.setdefault(item, len(ids)) if key == "_i" else walk(item)
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    return walk(message)


@settings(max_examples=150, deadline=None)
@given(spec=trees, frozen=st.booleans())
def test_the_copy_configures_as_flet_does(spec: Any, frozen: bool) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        flets = added(spec, frozen, diffing.FLETS_OWN, monkeypatch)
        ours = added(spec, frozen, diffing.configure_dataclass, monkeypatch)
    assert ours == flets


def test_the_copy_steps_over_plain_values_only() -> None:
    """A value that holds controls is walked however it is held: a list, a dict, a value
    object (a Padding holds none, a Container's content does)."""
    inner = ft.Text("inner")
    holder = ft.Container(content=ft.Row([ft.Column([inner], col={"xs": 6})]))
    builder = object_patch.DiffBuilder(None, None, control_cls=BaseControl)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(
            object_patch.DiffBuilder, "_configure_dataclass", diffing.configure_dataclass
        )
        found: Iterator[Any] = builder._configure_dataclass(holder, None, False)
        assert [type(control).__name__ for control in found] == [
            "Container",
            "Row",
            "Column",
            "Text",
        ]
    assert inner.parent is not None and type(inner.parent).__name__ == "Column"
