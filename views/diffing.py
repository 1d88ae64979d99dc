"""Flet's walk over a screen's new controls, without a call for each plain property.

When controls are added to a page, Flet 1.0.5 prepares each one for diffing
(`DiffBuilder._configure_dataclass`): it sets the control's parent, builds it and draws its
component, then walks every field of it for nested controls. The walk calls itself, as a
generator, for every field's value, though most are None, a string or a number and hold
nothing: opening a Black Spy game at deal 40 made about 5,600 such calls, some two fifths of
the server's time for the opening (measured in-process: 13.4 ms, and 9.5 ms with `install()`).

`install()` puts in a copy of that method that steps over plain values (None, str, int,
float, bool) without the call, and reads each class's field names once. Everything else is
Flet's code as it is, in the same order: the same controls come out, set up the same way
(tests/test_diffing.py compares the two on the same trees). Only for the Flet it was copied
from (`FLET_VERSION`): another Flet keeps its own method, and the test of the copy fails
until someone has compared it again.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Iterator

import flet.version
from flet.controls import object_patch

FLET_VERSION = "1.0.5"  # the Flet whose `DiffBuilder._configure_dataclass` this copies
PLAIN = frozenset({type(None), str, int, float, bool})  # values that hold no control
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
FLETS_OWN = object_patch.DiffBuilder._configure_dataclass


def install() -> bool:
    """Use `configure_dataclass` for Flet's, once per process; False where this Flet is not
    the one it was copied from (Flet's own stays)."""
    if flet.version.flet_version != FLET_VERSION:
        return False
    object_patch.DiffBuilder._configure_dataclass = configure_dataclass  # type: ignore[method-assign]
    return True


def field_names(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass that Flet walks (those not marked to skip), in order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        fields = dataclasses.fields(cls)
        names = tuple(f.name for f in fields if not f.metadata.get("skip", False))
        _FIELD_NAMES[cls] = names
    return names


def configure_dataclass(
    self: object_patch.DiffBuilder,
    item: object,
    parent: object,
    frozen: bool,
    configure_setattr_only: bool = False,
) -> Iterator[object]:
    """Flet 1.0.5's `DiffBuilder._configure_dataclass` (see its docstring), but a plain field
    value is stepped over where Flet called this for it (and the call did nothing)."""
    if type(item) in PLAIN:
        return
    control_cls = self.control_cls
    if dataclasses.is_dataclass(item):
        # An object already in a control tree keeps its parent (Flet's comment: in-place
        # updates can re-enter configuration from such an object).
        if parent is None:
            parent_ref = getattr(item, "_parent", None)
            parent = parent_ref() if parent_ref else None
        if parent:
            if parent is item:
                raise object_patch.ObjectPatchException(f"Parent is the same as item: {item}")
            setattr(item, "_parent", weakref.ref(parent))  # noqa: B010 (a field Flet declares)

        if hasattr(item, "_frozen"):
            frozen = getattr(item, "_frozen")  # noqa: B009
        elif frozen:
            setattr(item, "_frozen", frozen)  # noqa: B010

        item_cls = type(item)
        if getattr(item_cls, "__flet_control_cls__", None) is None:
            setattr(item_cls, "__flet_control_cls__", control_cls)  # noqa: B010

        is_control = control_cls is not None and isinstance(item, control_cls)
        if is_control:
            if not configure_setattr_only:
                getattr(item, "build")()  # noqa: B009
                getattr(item, "_before_update_safe")()  # noqa: B009
                object.__setattr__(item, "_initialized", True)
            yield item

        if not configure_setattr_only:
            # Controls nested in a value object belong to the nearest control around it.
            child_parent = item if is_control else parent
            for name in field_names(item_cls):
                value = getattr(item, name)
                if type(value) not in PLAIN:
                    yield from self._configure_dataclass(value, child_parent, frozen)

        if not frozen:
            # Changes after this are tracked from a clean start.
            dirty = getattr(item, "_dirty", None)
            if dirty is not None:
                dirty.clear()
            else:  # a plain dataclass: its scalar changes go to `__changes`
                if item_cls.__setattr__ is not object_patch._control_setattr:
                    setattr(item_cls, "__setattr__", object_patch._control_setattr)  # noqa: B010
                object.__setattr__(item, "__changes", {})

    elif isinstance(item, dict):
        for value in item.values():
            yield from self._configure_dataclass(value, parent, frozen)

    elif isinstance(item, list):
        for value in item:
            yield from self._configure_dataclass(value, parent, frozen)
