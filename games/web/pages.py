"""Each game's pages, by the game's kind (``GameKind.pages_module``, e.g.
``games.web.pages_indulgence``): the table's template, partials and context, the
announcement of a change, the replay and the rules page. The module is imported by its
name when first asked for, so that the game's server side (``games.kinds``, used by the
writers) does not import the web pages, which read through the selectors."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from games import kinds


def of_kind(kind: kinds.GameKind) -> ModuleType:
    return importlib.import_module(kind.pages_module)


def of(game: Any) -> ModuleType:
    """The pages of a ``Game`` row's game."""
    return of_kind(kinds.of(game))
