"""The uniform random bot: any legal action, each equally likely.

``choose(view, rng)`` draws with ``rng.choice`` from ``view["legal_actions"]`` (so the
same view and the same generator state give the same action) and returns a copy.
"""

from __future__ import annotations

import random
from typing import Any


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of the view's legal actions, uniformly at random."""
    actions: list[dict[str, Any]] = view["legal_actions"]
    if not actions:
        raise ValueError("The random bot was asked to move with no legal action.")
    return dict(rng.choice(actions))
