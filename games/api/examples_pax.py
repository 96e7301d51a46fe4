"""OpenAPI examples of Pax Illuminaten's shapes (``games.api.shapes_pax``): real answers
of the engine, made when this module is imported (a few milliseconds): a 2-seat game's
first decision as seat 0 sees it, and a 2-seat game capped at one round (15.5.3),
played by the random bot, whose record P-75's check accepts. The server's fields are
those a game created through the API would have. ``tests/api/test_schema_examples.py``
checks each against the schema."""

from __future__ import annotations

import random
from typing import Any

from drf_spectacular.utils import OpenApiExample

from engine.pax import engine as pax_engine
from engine.pax import record as pax_record
from engine.pax.view import view as pax_view

AT = "2026-11-27T12:00:00+00:00"
SEED = "openapi-example"
ACCOUNTS = [("ada", False), ("bot-random", True)]


def _server_seats(engine_seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "seat": entry["seat"],
            "username": ACCOUNTS[entry["seat"]][0],
            "display_name": ACCOUNTS[entry["seat"]][0],
            "is_bot": ACCOUNTS[entry["seat"]][1],
            "bot_kind": "random" if ACCOUNTS[entry["seat"]][1] else None,
            **{k: v for k, v in entry.items() if k != "seat"},
        }
        for entry in engine_seats
    ]


def _first_view() -> dict[str, Any]:
    state = pax_engine.new_game(2, "standard", SEED, None)
    while pax_engine.to_act(state) is None:
        state = pax_engine.advance(state)
    seat = pax_engine.to_act(state)
    view = pax_view(state, seat)
    view["legal_actions"] = view["legal_actions"][:6]  # the first few of the menu
    return {
        "id": 42,
        "game_type": "pax",
        "status": "in_progress",
        "variant": "standard",
        "player_count": 2,
        "rated": False,
        "sandbox": False,
        "version": 3,
        "my_seat": seat,
        "seed_commitment": view["seed"]["commitment"],
        "turn_timeout_seconds": 86400,
        "turn_deadline": "2026-11-28T12:00:00+00:00",
        **view,
        "seats": _server_seats(view["seats"]),
        "open_seats": 0,
        "result": None,
        "can_undo": False,
    }


def _record() -> dict[str, Any]:
    moves: list[dict[str, Any]] = []
    state = pax_engine.new_game(2, "standard", SEED, {"round_cap": 1})
    rng = random.Random(SEED)
    while not pax_engine.is_over(state):
        seat = pax_engine.to_act(state)
        if seat is None:
            action: dict[str, Any] = {"type": "advance"}
            state = pax_engine.advance(state)
        else:
            action = dict(rng.choice(pax_engine.legal_actions(state, seat)))
            state = pax_engine.apply(state, seat, action)
        moves.append({"seq": len(moves) + 1, "seat": seat, "action": action, "at": AT})
    record = pax_record.full_record(state)
    seats = [
        {**entry, "username": ACCOUNTS[entry["seat"]][0], "is_bot": ACCOUNTS[entry["seat"]][1]}
        for entry in record["seats"]
    ]
    return {
        **record,
        "id": 42,
        "game_type": "pax",
        "game_status": "finished",
        "seats": seats,
        "moves": moves,
    }


PAX_VIEW = _first_view()
PAX_RECORD = _record()

VIEW_EXAMPLE = OpenApiExample(
    "Pax Illuminaten: the first decision of a 2-seat game", value=PAX_VIEW, response_only=True
)
CREATE_EXAMPLES = [
    OpenApiExample(
        "Pax Illuminaten against two random bots",
        value={
            "game_type": "pax",
            "player_count": 3,
            "rated": False,
            "turn_timeout_seconds": 86400,
            "options": {"round_cap": 40},
            "bots": [{"seat": s, "bot": "random"} for s in (1, 2)],
        },
        request_only=True,
    ),
]
ACTION_EXAMPLES = [
    OpenApiExample(
        "Pax Illuminaten: Influence 2 disks onto a card (7.2)",
        value={
            "action": {"type": "influence", "by": "main", "target": [2, 4], "n": 2},
            "version": 7,
        },
        request_only=True,
    ),
    OpenApiExample(
        "Pax Illuminaten: pay the next unit with a Nobility token (2.2.5)",
        value={"action": {"type": "pay", "faction": "NOB", "exchange": False}, "version": 8},
        request_only=True,
    ),
    OpenApiExample(
        "Pax Illuminaten: the defender's sealed Oust card (15.2.1)",
        value={"action": {"type": "oust_card", "card": "PIL031"}},
        request_only=True,
    ),
    OpenApiExample(
        "Pax Illuminaten: end the turn", value={"action": {"type": "end"}}, request_only=True
    ),
]
UNDO_REQUEST_EXAMPLE = OpenApiExample(
    "Pax Illuminaten: take back your last action (15.5.2)",
    value={"version": 9},
    request_only=True,
)
EXPORT_EXAMPLE = OpenApiExample(
    "Pax Illuminaten: a one-round game's record (pax-record/1)",
    value=PAX_RECORD,
    response_only=True,
    status_codes=["200"],
)
