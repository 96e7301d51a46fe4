"""OpenAPI examples of New Eleusis' shapes (``games.api.shapes_eleusis``): real answers of
the engine (a 4-seat game after the dealer's library rule and two plays, seat 2's view;
a 3-seat one-round game's record, which ``verify`` accepts), with the server's fields,
kept in ``example_data/`` as JSON.
``tests/api/test_schema_examples.py`` checks each against the schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from drf_spectacular.utils import OpenApiExample

DATA = Path(__file__).resolve().parent / "example_data"
"""The view and the record as JSON files (data, not code; each as the engine gave it)."""
ELEUSIS_VIEW: dict[str, Any] = json.loads((DATA / "eleusis_view.json").read_text("utf-8"))
ELEUSIS_RECORD: dict[str, Any] = json.loads((DATA / "eleusis_record.json").read_text("utf-8"))

GAME_TYPES: list[dict[str, Any]] = [
    {
        "key": "indulgence",
        "title": "Indulgence",
        "player_counts": [3, 4],
        "rated_player_counts": [3, 4],
        "variants": [{"key": "basic", "title": "Basic"}, {"key": "expert", "title": "Expert"}],
        "bots": [
            {"key": "heuristic", "title": "Heuristic"},
            {"key": "ismcts", "title": "ISMCTS"},
            {"key": "random", "title": "Random"},
        ],
        "autopilot": "heuristic",
        "rules_url": "/rules/",
    },
    {
        "key": "eleusis",
        "title": "New Eleusis",
        "player_counts": [3, 4, 5, 6, 7, 8, 9, 10],
        "rated_player_counts": [4, 5, 6, 7, 8],
        "variants": [
            {"key": "standard", "title": "Standard"},
            {"key": "express", "title": "Express (V5: 12 cards)"},
            {"key": "short", "title": "Short (V3: sudden death at 30 and 20)"},
            {"key": "practice", "title": "Practice (V4: the house deals)"},
        ],
        "bots": [
            {"key": "novice", "title": "Novice"},
            {"key": "random", "title": "Random"},
            {"key": "scientist", "title": "Scientist"},
        ],
        "autopilot": "novice",
        "rules_url": "/rules/eleusis/",
    },
]

VIEW_EXAMPLE = OpenApiExample(
    "New Eleusis: a scientist's view on their turn", value=ELEUSIS_VIEW, response_only=True
)
CREATE_EXAMPLES = [
    OpenApiExample(
        "New Eleusis against three novice bots",
        value={
            "game_type": "eleusis",
            "player_count": 4,
            "rated": False,
            "turn_timeout_seconds": 86400,
            "options": {"hand_size": 10, "difficulty": "easy"},
            "bots": [{"seat": s, "bot": "novice"} for s in (1, 2, 3)],
        },
        request_only=True,
    ),
]
ACTION_EXAMPLES = [
    OpenApiExample(
        "New Eleusis: play one card",
        value={"action": {"type": "play", "cards": ["3S.1"], "prophet": "no"}, "version": 5},
        request_only=True,
    ),
    OpenApiExample(
        "New Eleusis: a string of two cards, declaring prophet after it",
        value={"action": {"type": "play", "cards": ["5D.2", "7D.1"], "prophet": "declare"}},
        request_only=True,
    ),
    OpenApiExample(
        "New Eleusis: no play",
        value={"action": {"type": "no_play", "prophet": "no"}, "version": 5},
        request_only=True,
    ),
    OpenApiExample(
        "New Eleusis: the dealer's own rule",
        value={
            "action": {
                "type": "set_rule",
                "source": "accept card.red != prev.red",
                "hints": [{"id": "H4"}],
                "free_hint": None,
                "no_play_choice": "random",
                "confirm_warnings": False,
            }
        },
        request_only=True,
    ),
    OpenApiExample(
        "New Eleusis: a library rule by difficulty",
        value={"action": {"type": "library_rule", "difficulty": "easy"}},
        request_only=True,
    ),
    OpenApiExample(
        "New Eleusis: the prophet's call",
        value={"action": {"type": "call", "verdict": "wrong"}},
        request_only=True,
    ),
]
EXPORT_EXAMPLE = OpenApiExample(
    "New Eleusis: a one-round game's record (eleusis-record-1)",
    value=ELEUSIS_RECORD,
    response_only=True,
    status_codes=["200"],
)
# One entry shown (the schema's example of a list answer is a list of this entry).
GAME_TYPES_EXAMPLE = OpenApiExample("New Eleusis' entry", value=GAME_TYPES[1], response_only=True)
