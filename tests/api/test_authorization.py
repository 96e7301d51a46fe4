"""The authorization matrix: every endpoint, asked by each member of the cast.

Roles, for a 3-player game in progress:
  actor    the seated player whose turn it is (bearer token, read + play)
  seated   another seated player (bearer token)
  outsider an account with no seat (bearer token)
  anonymous no credentials
  staff    a staff account on the web session
  reader   the actor's read-only token
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error

pytestmark = pytest.mark.django_db

ROLES = ["actor", "seated", "outsider", "anonymous", "staff", "reader"]

OK = (200, None)
CREATED = (201, None)
NO_ACCOUNT = (401, "not_authenticated")
READ_ONLY = (403, "insufficient_scope")
NOT_SEATED = (403, "not_seated")
NEEDS_SESSION = (403, "session_required")
UNFINISHED = (409, "game_not_finished")
FULL = (409, "game_full")
SEATED = (409, "already_seated")
NO_UNDO = (409, "undo_not_available")


def _row(*outcomes: tuple[int, str | None]) -> dict[str, tuple[int, str | None]]:
    return dict(zip(ROLES, outcomes, strict=True))


# endpoint -> (method, path, body, expected outcome per role)
Request = tuple[str, str, Callable[[dict[str, Any]], Any] | None]
ENDPOINTS: dict[str, tuple[Request, dict[str, tuple[int, str | None]]]] = {
    "view": (
        ("get", "/api/v1/games/{id}/", None),
        _row(OK, OK, OK, OK, OK, OK),
    ),
    "actions": (
        ("post", "/api/v1/games/{id}/actions", lambda v: {"action": v["legal_actions"][0]}),
        _row(OK, (409, "not_your_turn"), NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    # Indulgence keeps no undo (Pax Illuminaten's 15.5.2 only: tests/api/test_pax_undo.py).
    "undo": (
        ("post", "/api/v1/games/{id}/undo", lambda v: {"version": v["version"]}),
        _row(NO_UNDO, NO_UNDO, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    "moves": (
        ("get", "/api/v1/games/{id}/moves", None),
        _row(OK, OK, OK, OK, OK, OK),
    ),
    "export": (
        ("get", "/api/v1/games/{id}/export", None),
        # Staff read a running game's record only inside a dispute case on it (issue 26):
        # tests/proof/test_staff_record.py.
        _row(UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED),
    ),
    "join": (
        ("post", "/api/v1/games/{id}/join", None),
        _row(SEATED, SEATED, FULL, NO_ACCOUNT, FULL, READ_ONLY),
    ),
    "disputes": (
        ("post", "/api/v1/games/{id}/disputes", lambda v: {"reason": "A card went missing."}),
        _row(CREATED, CREATED, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    "list": (
        ("get", "/api/v1/games/", None),
        _row(OK, OK, OK, OK, OK, OK),
    ),
    "list mine": (
        ("get", "/api/v1/games/?mine=true", None),
        _row(OK, OK, OK, NO_ACCOUNT, OK, OK),
    ),
    "create": (
        ("post", "/api/v1/games/", lambda v: {"player_count": 4}),
        _row(CREATED, CREATED, CREATED, NO_ACCOUNT, CREATED, READ_ONLY),
    ),
    "leaderboard": (
        ("get", "/api/v1/leaderboard?variant=basic&player_count=3", None),
        _row(OK, OK, OK, OK, OK, OK),
    ),
    "me": (
        ("get", "/api/v1/me", None),
        _row(OK, OK, OK, NO_ACCOUNT, OK, OK),
    ),
    "tokens": (
        ("get", "/api/v1/tokens", None),
        _row(NEEDS_SESSION, NEEDS_SESSION, NEEDS_SESSION, NO_ACCOUNT, OK, NEEDS_SESSION),
    ),
    "create token": (
        ("post", "/api/v1/tokens", lambda v: {"name": "more"}),
        _row(NEEDS_SESSION, NEEDS_SESSION, NEEDS_SESSION, NO_ACCOUNT, CREATED, NEEDS_SESSION),
    ),
}


@pytest.fixture
def clients(
    game: Game,
    owner: Any,
    opponent: Any,
    third: Any,
    outsider: Any,
    staff: Any,
    bearer: Bearer,
    session: Any,
    anonymous: Client,
) -> dict[str, Client]:
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    actor = players[game.to_act_seat]
    return {
        "actor": bearer(actor),
        "seated": bearer(players[(game.to_act_seat + 1) % 3]),
        "outsider": bearer(outsider),
        "anonymous": anonymous,
        "staff": session(staff),
        "reader": bearer(actor, scopes=("read",)),
    }


CASES = [(endpoint, role) for endpoint in ENDPOINTS for role in ROLES]


@pytest.mark.parametrize(("endpoint", "role"), CASES, ids=[f"{e}-{r}" for e, r in CASES])
def test_it_answers_each_role_as_the_matrix_says(
    endpoint: str, role: str, game: Game, clients: dict[str, Client]
) -> None:
    (method, path, body), expected = ENDPOINTS[endpoint]
    actors_view = clients["actor"].get(f"/api/v1/games/{game.pk}/").json()
    data = body(actors_view) if body else None
    client = clients[role]
    response = getattr(client, method)(path.format(id=game.pk), data, format="json")
    status, code = expected[role]
    if code is None:
        assert response.status_code == status, response.json()
    else:
        assert_error(response, status, code)


@pytest.mark.parametrize(
    ("role", "sees_seat"),
    [
        ("actor", True),
        ("seated", True),
        ("outsider", False),
        ("anonymous", False),
        ("staff", False),
        ("reader", True),
    ],
)
def test_it_shows_seated_players_their_seat_and_everyone_else_the_spectators_view(
    role: str, sees_seat: bool, game: Game, clients: dict[str, Client]
) -> None:
    view = clients[role].get(f"/api/v1/games/{game.pk}/").json()
    assert (view["my_seat"] is not None) is sees_seat
    assert bool(view["my_hand"]) is sees_seat
    assert bool(view["legal_actions"]) is (role in {"actor", "reader"})
