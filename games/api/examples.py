"""Example bodies for the OpenAPI schema (taken from a real 4-player game, trimmed)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

_BORGIA_EDICT = {
    "id": "any-borgia",
    "kind": "any_family",
    "title": "Don't take any Borgias",
    "families": ["borgia"],
    "edict_amount": 1,
    "sin_reward": 6,
    "fail_penalty": 8,
    "basic": True,
    "text": "Each player but the Ruler pays the Ruler 1 florin for every Borgia they take.",
    "sin_text": "The sinner must take all 9 Borgias; then every other player pays them 6 florins.",
}
_RANKS_EDICT = {
    "id": "twos-threes",
    "kind": "ranks",
    "title": "Don't take any 2s or 3s",
    "families": [],
    "edict_amount": 1,
    "sin_reward": 6,
    "fail_penalty": 8,
    "basic": True,
    "text": "Each player but the Ruler pays the Ruler 1 florin for every 2 or 3 they take.",
    "sin_text": "The sinner must take all eight 2s and 3s; then every other player pays them 6 "
    "florins.",
}


def _seat(seat: int, username: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "username": username,
        "display_name": username,
        "is_bot": False,
        "bot_kind": None,
        "florins": 30,
        "papal_bull_available": False,
    }


def _play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "indulgence": False}


GAME_VIEW: dict[str, Any] = {
    "id": 17,
    "status": "in_progress",
    "variant": "basic",
    "player_count": 4,
    "rated": True,
    "version": 14,
    "my_seat": 2,
    "seed_commitment": "fcd3fcf3893605287a54c62e3923958dc854f3bad53754cff331cfd69510ecf5",
    "turn_timeout_seconds": 86400,
    "turn_deadline": "2026-11-23T09:12:00+00:00",
    "seats": [_seat(0, "anna"), _seat(1, "bruno"), _seat(2, "carla"), _seat(3, "dario")],
    "open_seats": 0,
    "round": 1,
    "hand_number": 1,
    "total_hands": 12,
    "ruler_seat": 1,
    "first_ruler": 1,
    "phase": "playing",
    "to_act": 2,
    "edict_row": [_RANKS_EDICT],
    "edicts_in_play": [_BORGIA_EDICT],
    "papal_bull": False,
    "edict_deck_remaining": 9,
    "sin_decisions": [{"seat": 2, "decision": "sin"}],
    "sinner_seat": 2,
    "trump": None,
    "indulgence_used": False,
    "face_down": False,
    "my_hand": ["B2", "B8", "M5", "M8", "O1", "O6", "S1", "S8"],
    "hand_counts": {"0": 7, "1": 7, "2": 8, "3": 8},
    "current_trick": {
        "leader": 0,
        "led_family": "orsini",
        "plays": [_play(0, "O4"), _play(1, "O9")],
    },
    "tricks": [
        {
            "leader": 2,
            "plays": [_play(2, "M1"), _play(3, "M2"), _play(0, "M9"), _play(1, "M6")],
            "winner": 0,
        }
    ],
    "trick_counts": {"0": 1, "1": 0, "2": 0, "3": 0},
    "ended_early": False,
    "pending_tie": None,
    "tie_choices": [],
    "legal_actions": [
        {"type": "play", "card": "O1", "indulgence": False},
        {"type": "play", "card": "O1", "indulgence": True},
        {"type": "play", "card": "O6", "indulgence": False},
        {"type": "play", "card": "O6", "indulgence": True},
    ],
    "last_settlement": None,
    "result": None,
    "is_over": False,
}

GAME_SUMMARY: dict[str, Any] = {
    "id": 17,
    "status": "in_progress",
    "variant": "basic",
    "player_count": 4,
    "rated": True,
    "version": 14,
    "seats": [
        {"seat": n, "username": name, "is_bot": False}
        for n, name in enumerate(["anna", "bruno", "carla", "dario"])
    ],
    "open_seats": 0,
    "to_act": 2,
    "my_seat": 2,
    "my_turn": True,
    "turn_deadline": "2026-11-23T09:12:00+00:00",
    "created_at": "2026-11-22T08:00:00+00:00",
}

VIEW_EXAMPLE = OpenApiExample("A seat's view while playing", value=GAME_VIEW, response_only=True)

CREATE_EXAMPLES = [
    OpenApiExample(
        "Rated game with two bots",
        value={
            "player_count": 4,
            "variant": "basic",
            "turn_timeout_seconds": 86400,
            "bots": [{"seat": 2, "bot": "heuristic"}, {"seat": 3, "bot": "random"}],
        },
        request_only=True,
    ),
    OpenApiExample(
        "Challenge two people, one bot seat",
        value={
            "player_count": 4,
            "bots": [{"seat": 3, "bot": "ismcts"}],
            "invite": ["anna", "bruno"],
        },
        request_only=True,
    ),
    OpenApiExample(
        "Unrated test game with a fixed seed",
        value={"player_count": 3, "rated": False, "seed": "my-test-seed"},
        request_only=True,
    ),
]

ACTION_EXAMPLES = [
    OpenApiExample(
        "Play a card",
        value={"action": {"type": "play", "card": "O6", "indulgence": False}, "version": 14},
        request_only=True,
    ),
    OpenApiExample(
        "Choose an edict",
        value={"action": {"type": "choose_edict", "edict": "any-borgia"}, "version": 3},
        request_only=True,
    ),
    OpenApiExample(
        "Decide whether to sin",
        value={"action": {"type": "sin"}, "version": 5},
        request_only=True,
    ),
]

MOVES_EXAMPLE = OpenApiExample(
    "The log so far",
    value={
        "id": 17,
        "version": 14,
        "moves": [
            {
                "seq": 1,
                "seat": 1,
                "action": {"type": "choose_edict", "edict": "any-borgia"},
                "actor": "human",
                "bot": None,
                "at": "2026-11-22T08:01:00+00:00",
            },
            {
                "seq": 2,
                "seat": 2,
                "action": {"type": "sin"},
                "actor": "human",
                "bot": None,
                "at": "2026-11-22T08:02:00+00:00",
            },
        ],
    },
    response_only=True,
)

DISPUTE_EXAMPLE = OpenApiExample(
    "Opened",
    value={
        "id": 3,
        "status": "open",
        "reason": "Seat 3 played S4 although they had to follow medici.",
        "created_at": "2026-11-22T09:00:00+00:00",
    },
    response_only=True,
)

TOKEN_EXAMPLE = OpenApiExample(
    "Created",
    value={
        "id": 5,
        "name": "my bot",
        "prefix": "ind_Qx3v9aLr",
        "scopes": ["play", "read"],
        "created_at": "2026-11-22T08:00:00+00:00",
        "last_used_at": None,
        "revoked_at": None,
        "token": "ind_Qx3v9aLrT0k3nSh0wnOnlyOnce-abcdefghijklmnopq",
    },
    response_only=True,
)
