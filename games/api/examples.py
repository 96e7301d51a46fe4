"""Example bodies for the OpenAPI schema (taken from a real 4-player game, trimmed)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from games.selectors import UNDEALT_VIEW

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
        "florins_adjustment": 0,
    }


def _play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "indulgence": False}


GAME_VIEW: dict[str, Any] = {
    "id": 17,
    "status": "in_progress",
    "game_type": "indulgence",
    "variant": "basic",
    "player_count": 4,
    "rated": True,
    "sandbox": False,
    "version": 14,
    "my_seat": 2,
    "seed_commitment": "fcd3fcf3893605287a54c62e3923958dc854f3bad53754cff331cfd69510ecf5",
    "turn_timeout_seconds": 86400,
    "turn_deadline": "2026-11-23T09:12:00+00:00",
    "seats": [_seat(0, "anna"), _seat(1, "bruno"), _seat(2, "carla"), _seat(3, "dario")],
    "florin_adjustments": [],
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
    "game_type": "indulgence",
    "variant": "basic",
    "player_count": 4,
    "rated": True,
    "sandbox": False,
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
        "Sandbox: a fixed seed against built-in bots",
        value={
            "player_count": 3,
            "rated": False,
            "seed": "my-test-seed",
            "bots": [{"seat": 1, "bot": "random"}, {"seat": 2, "bot": "heuristic"}],
        },
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


# --- from a real 3-player game on a local server (lists trimmed) -----------------------

_GAME_LIST: Any = {
    "count": 1,
    "next": None,
    "previous": None,
    "results": [
        {
            "id": 1,
            "status": "finished",
            "game_type": "indulgence",
            "variant": "basic",
            "player_count": 3,
            "rated": False,
            "sandbox": False,
            "version": 229,
            "seats": [
                {"seat": 0, "username": "anna", "is_bot": False},
                {"seat": 1, "username": "bruno", "is_bot": False},
                {"seat": 2, "username": "chiara", "is_bot": False},
            ],
            "open_seats": 0,
            "to_act": None,
            "my_seat": 0,
            "my_turn": False,
            "turn_deadline": None,
            "created_at": "2026-11-22T08:46:15+00:00",
        }
    ],
}

_EXPORT: Any = {
    "game_type": "indulgence",
    "variant": "basic",
    "player_count": 3,
    "seed": "example-1",
    "seed_commitment": "bb7d0cf1ee44aca0bcc0f739b77b935f13aec2fd537f5c29dedd883dd429ba83",
    "first_ruler": 1,
    "edict_deck": [
        "last-sforza",
        "last-orsini",
        "any-borgia",
        "last-medici",
        "first-to-three",
        "any-sforza",
        "last-borgia",
        "sixes",
        "twos-threes",
        "any-orsini",
        "any-medici",
        "first-last",
    ],
    "hands": [
        {
            "number": 1,
            "round": 1,
            "ruler": 1,
            "deal": {
                "0": ["B1", "B4", "B5", "B9", "M8", "O1", "O7", "O8", "S1", "S4", "S6", "S7"],
                "1": ["B2", "B7", "M3", "M5", "M6", "O4", "O5", "O6", "O9", "S5", "S8", "S9"],
                "2": ["B3", "B6", "B8", "M1", "M2", "M4", "M7", "M9", "O2", "O3", "S2", "S3"],
            },
            "edict_row": ["last-sforza", "last-orsini", "any-borgia"],
            "edicts_in_force": ["last-sforza"],
            "papal_bull": False,
            "trump": None,
            "sin_decisions": [{"seat": 2, "decision": "sin"}],
            "sinner": 2,
            "tricks": [
                {
                    "leader": 2,
                    "plays": [
                        {"seat": 2, "card": "B6", "indulgence": False},
                        {"seat": 0, "card": "B9", "indulgence": False},
                        {"seat": 1, "card": "B7", "indulgence": False},
                    ],
                    "winner": 0,
                },
                {
                    "leader": 0,
                    "plays": [
                        {"seat": 0, "card": "B5", "indulgence": False},
                        {"seat": 1, "card": "B2", "indulgence": False},
                        {"seat": 2, "card": "B3", "indulgence": False},
                    ],
                    "winner": 0,
                },
            ],
            "current_trick": None,
            "ended_early": True,
            "tie_choices": [],
            "sin_succeeded": False,
            "payments": [
                {"payer": 2, "payee": 1, "owed": 8, "paid": 8, "reason": "last-sforza: sin failed"}
            ],
            "florins_after": {"0": 30, "1": 38, "2": 22},
        }
    ],
    "result": {
        "winner_seat": 0,
        "florins": {"0": 57, "1": 16, "2": 17},
        "reason": "rounds_complete",
    },
    "moves": [
        {
            "seq": 1,
            "seat": 1,
            "action": {"type": "choose_edict", "edict": "last-sforza"},
            "at": "2026-11-22T08:46:15+00:00",
        },
        {"seq": 2, "seat": 2, "action": {"type": "sin"}, "at": "2026-11-22T08:46:15+00:00"},
        {
            "seq": 3,
            "seat": 2,
            "action": {"card": "B6", "type": "play", "indulgence": False},
            "at": "2026-11-22T08:46:15+00:00",
        },
    ],
    "id": 1,
    "status": "finished",
    "seats": [
        {"seat": 0, "username": "anna", "is_bot": False},
        {"seat": 1, "username": "bruno", "is_bot": False},
        {"seat": 2, "username": "chiara", "is_bot": False},
    ],
    "florin_adjustments": [],
    "florins_adjusted": {"0": 57, "1": 16, "2": 17},
}

_JOINED_VIEW: Any = {
    **UNDEALT_VIEW,  # what an open game's view says before the deal
    "id": 1,
    "status": "open",
    "game_type": "indulgence",
    "variant": "basic",
    "player_count": 3,
    "rated": False,
    "sandbox": False,
    "version": 2,
    "my_seat": 1,
    "seed_commitment": "bb7d0cf1ee44aca0bcc0f739b77b935f13aec2fd537f5c29dedd883dd429ba83",
    "turn_timeout_seconds": None,
    "turn_deadline": None,
    "seats": [
        {
            "seat": 0,
            "username": "anna",
            "display_name": "anna",
            "is_bot": False,
            "bot_kind": None,
            "florins": None,
            "papal_bull_available": None,
            "florins_adjustment": 0,
        },
        {
            "seat": 1,
            "username": "bruno",
            "display_name": "bruno",
            "is_bot": False,
            "bot_kind": None,
            "florins": None,
            "papal_bull_available": None,
            "florins_adjustment": 0,
        },
    ],
    "open_seats": 1,
    "florin_adjustments": [],
}

_LEADERBOARD: Any = {
    "game_type": "indulgence",
    "variant": "basic",
    "player_count": 4,
    "entries": [
        {
            "rank": 1,
            "username": "anna",
            "display_name": "Anna",
            "is_bot": False,
            "rating": 21.4,
            "mu": 29.8,
            "sigma": 2.8,
            "games": 41,
        },
        {
            "rank": 2,
            "username": "heuristic-bot",
            "display_name": "Heuristic bot",
            "is_bot": True,
            "rating": 18.9,
            "mu": 25.6,
            "sigma": 2.23,
            "games": 310,
        },
    ],
}

_ME: Any = {
    "username": "anna",
    "display_name": "anna",
    "is_bot": False,
    "language": "en",
    "is_staff": False,
    "auth": "token",
    "scopes": ["play", "read"],
}

_DISPUTE_DETAIL: Any = {
    "id": 1,
    "game": 1,
    "opened_by": "anna",
    "status": "open",
    "reason": "Seat 2 did not follow suit in trick 4.",
    "resolution": "",
    "created_at": "2026-11-22T08:46:26+00:00",
    "updated_at": "2026-11-22T08:46:26+00:00",
    "resolved_at": None,
}

_DISPUTE_LIST: Any = {"disputes": [_DISPUTE_DETAIL]}

_TOKEN_LIST: Any = {
    "count": 1,
    "next": None,
    "previous": None,
    "results": [
        {
            "id": 1,
            "name": "my bot",
            "prefix": "ind_iZtwKO0S",
            "scopes": ["play", "read"],
            "created_at": "2026-11-22T08:46:14+00:00",
            "last_used_at": "2026-11-22T08:46:15+00:00",
            "revoked_at": None,
        }
    ],
}

GAME_LIST_EXAMPLE = OpenApiExample(
    "One page (limit=2)", value=_GAME_LIST, response_only=True, status_codes=["200"]
)
EXPORT_EXAMPLE = OpenApiExample(
    "A finished game's record (one hand, two tricks and three moves shown)",
    value=_EXPORT,
    response_only=True,
    status_codes=["200"],
)
JOIN_EXAMPLE = OpenApiExample(
    "Seated; one seat still open", value=_JOINED_VIEW, response_only=True, status_codes=["200"]
)
LEADERBOARD_EXAMPLE = OpenApiExample(
    "Top of the 4-player basic board of Indulgence", value=_LEADERBOARD, response_only=True
)
ME_EXAMPLE = OpenApiExample("Signed in with a token", value=_ME, response_only=True)
DISPUTE_LIST_EXAMPLE = OpenApiExample("One open dispute", value=_DISPUTE_LIST, response_only=True)
DISPUTE_DETAIL_EXAMPLE = OpenApiExample("Open", value=_DISPUTE_DETAIL, response_only=True)
DISPUTE_REQUEST_EXAMPLE = OpenApiExample(
    "What went wrong",
    value={"reason": "Seat 2 did not follow suit in trick 4."},
    request_only=True,
)
TOKEN_LIST_EXAMPLE = OpenApiExample(
    "One token (its secret part is never shown again)",
    value=_TOKEN_LIST,
    response_only=True,
    status_codes=["200"],
)
TOKEN_REQUEST_EXAMPLE = OpenApiExample(
    "A token for a bot that plays",
    value={"name": "my bot", "scopes": ["read", "play"]},
    request_only=True,
)

_ABORTED_VIEW: Any = {
    **_JOINED_VIEW,  # an open game its creator (seat 0) called off: void, nobody to act
    "status": "void",
    "version": 3,
    "my_seat": 0,
}
ABORT_REQUEST_EXAMPLE = OpenApiExample(
    "Refused if the game moved on (optional)", value={"version": 2}, request_only=True
)
ABORT_EXAMPLE = OpenApiExample(
    "Called off before it started",
    value=_ABORTED_VIEW,
    response_only=True,
    status_codes=["200"],
)
