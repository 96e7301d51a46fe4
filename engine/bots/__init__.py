"""Built-in bots.

A bot is a function ``(view, rng) -> action``: it is handed only what its seat may know
(the dict ``engine.indulgence.view(state, seat)`` returns) and its own seeded
``random.Random``; it returns one of ``view["legal_actions"]``. Nothing here can reach the
true state, so no bot can read hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.bots import random_bot

BotFunction = Callable[[dict[str, Any], random.Random], dict[str, Any]]


_REGISTRY: dict[str, tuple[str, BotFunction]] = {"random": ("1", random_bot.choose)}


def register(kind: str, version: str, bot: BotFunction) -> None:
    """Make a bot available under ``kind`` (its ``version`` goes into the move log)."""
    _REGISTRY[kind] = (version, bot)


def available() -> list[str]:
    return sorted(_REGISTRY)


def choose(kind: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action the ``kind`` bot picks from this view."""
    try:
        _, bot = _REGISTRY[kind]
    except KeyError:
        raise ValueError(f"There is no bot called {kind!r}.") from None
    return bot(view, rng)


def version(kind: str) -> str:
    return _REGISTRY[kind][0]


def _register_builtins() -> None:
    """The heuristic and ISMCTS bots (imported here, after the registry exists)."""
    from engine.bots.heuristic import VERSION as HEURISTIC_VERSION
    from engine.bots.heuristic import heuristic_bot
    from engine.bots.ismcts import VERSION as ISMCTS_VERSION
    from engine.bots.ismcts import ismcts_bot

    register("heuristic", HEURISTIC_VERSION, heuristic_bot)
    register("ismcts", ISMCTS_VERSION, ismcts_bot)


_register_builtins()
