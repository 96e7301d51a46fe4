"""The server's door to the engine's built-in bots, for every game (``games.kinds``: each
game's ``META.bots`` and which of them sit at a table).

A bot is handed only its seat's view and its own seeded random source, never the state;
this module adds nothing to what the bot may see. ``game_type`` defaults to the game a
client that never says which means (api.md, "Many games").
"""

from __future__ import annotations

import random
from typing import Any

from games import kinds


def available_kinds(game_type: str = kinds.DEFAULT) -> frozenset[str]:
    """The bot kinds that may take a seat at a table of that game."""
    return kinds.get(game_type).bot_kinds()


def choose(
    kind: str, view: dict[str, Any], rng: random.Random, *, game_type: str = kinds.DEFAULT
) -> dict[str, Any]:
    return kinds.get(game_type).bot_choose(kind, view, rng)


def version(kind: str, *, game_type: str = kinds.DEFAULT) -> str:
    return kinds.get(game_type).bot_version(kind)
