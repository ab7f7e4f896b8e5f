"""Benches that compare with other code: import ``president`` from another source tree.

A bench that runs itself again with ``PRESIDENT_BENCH_TREE=PATH`` in the environment
and calls ``use_tree_from_environment()`` before importing anything of ours gets the
code of the tree at PATH (e.g. ``git archive COMMIT | tar -x -C /tmp/base``): the
baseline of a before/after comparison in one run, with the same interpreter.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

TREE_VARIABLE = "PRESIDENT_BENCH_TREE"
_PLACES = {"president": "president", "president.net": "net", "president.cli": "cli"}


class _TreeFinder(importlib.abc.MetaPathFinder):
    def __init__(self, root: str) -> None:
        self.root = root

    def find_spec(self, name: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        folder = _PLACES.get(name)
        if folder is None:
            return None
        where = os.path.join(self.root, folder)
        return importlib.util.spec_from_file_location(
            name, os.path.join(where, "__init__.py"), submodule_search_locations=[where])


def use_tree_from_environment() -> None:
    """Import ``president`` (with ``president.net`` and ``president.cli``) from the tree
    named by ``$PRESIDENT_BENCH_TREE``, if any, instead of this checkout."""
    root = os.environ.get(TREE_VARIABLE)
    if root:
        sys.meta_path.insert(0, _TreeFinder(root))
