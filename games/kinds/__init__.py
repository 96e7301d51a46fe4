"""The games the server hosts, as the server sees them: one :class:`GameKind` per key of
``engine.registry``, looked up through :data:`KINDS` (architecture.md, "Many games").

The services, selectors, announcements, API and pages ask a game's kind for whatever
differs between games (how its state is stored, its automatic step, deadlines,
autopilot, wording, what others may see of a move, its record) and never branch on the
game's key. A new game adds its engine package, a module here (``games/kinds/<key>.py``)
and its line in :data:`KINDS`, and its templates (docs/games.md).
"""

from __future__ import annotations

from typing import Any

from engine import registry
from games.kinds import eleusis, indulgence, pax
from games.kinds.base import GameKind, HistoryWrite, Notice

# A client that never says which game it means plays Indulgence (api.md, "Many games").
DEFAULT = "indulgence"

KINDS: dict[str, GameKind] = {kind.key: kind for kind in (indulgence.KIND, eleusis.KIND, pax.KIND)}
KEYS = list(KINDS)  # the schema's GameTypeEnum (settings.SPECTACULAR_SETTINGS)


def get(key: str) -> GameKind:
    """The kind of that key; ``KeyError`` naming the known keys if there is none."""
    try:
        return KINDS[key]
    except KeyError:
        raise KeyError(f"There is no game {key!r} (known: {', '.join(sorted(KINDS))}).") from None


def of(game: Any) -> GameKind:
    """The kind of a ``Game`` row (its ``game_type``)."""
    return KINDS[game.game_type]


def hosted() -> list[GameKind]:
    """Every game the server hosts, in the registry's order."""
    return [KINDS[key] for key in registry.GAMES if key in KINDS]


__all__ = ["DEFAULT", "KEYS", "KINDS", "GameKind", "HistoryWrite", "Notice", "get", "hosted", "of"]
