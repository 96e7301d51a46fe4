"""The server's door to the engine's built-in bots (engine.bots).

A bot is handed only its seat's view (engine.indulgence.view) and its own seeded random
source, never the state; this module adds nothing to what the bot may see.
"""

from __future__ import annotations

import random
from typing import Any

from engine import bots as engine_bots


def available_kinds() -> frozenset[str]:
    return frozenset(engine_bots.available())


def choose(kind: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return engine_bots.choose(kind, view, rng)


def version(kind: str) -> str:
    return engine_bots.version(kind)
