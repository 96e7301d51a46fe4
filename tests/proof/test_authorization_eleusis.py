"""The authorization matrix of tests/api/test_authorization.py on a New Eleusis game (issue
24): the same roles get the same answers from every game route, whatever the game, and
the dealer's rule (and its actions) are the dealer's alone.

Roles: actor (seat 0, the dealer setting the rule), seated (seat 1, a scientist),
outsider, anonymous, staff (web session, not seated), reader (the actor's read-only
token)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games import services
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error
from tests.api.test_authorization import ROLES
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

OK = (200, None)
CREATED = (201, None)
NO_ACCOUNT = (401, "not_authenticated")
READ_ONLY = (403, "insufficient_scope")
NOT_SEATED = (403, "not_seated")
UNFINISHED = (409, "game_not_finished")
FULL = (409, "game_full")
SEATED = (409, "already_seated")
TURN = (409, "not_your_turn")
RULE = {"type": "library_rule", "difficulty": "easy"}


def _row(*outcomes: tuple[int, str | None]) -> dict[str, tuple[int, str | None]]:
    return dict(zip(ROLES, outcomes, strict=True))


ENDPOINTS: dict[str, tuple[str, str, Any, dict[str, tuple[int, str | None]]]] = {
    "view": ("get", "/api/v1/games/{id}/", None, _row(OK, OK, OK, OK, OK, OK)),
    "rule": (
        "post",
        "/api/v1/games/{id}/actions",
        {"action": RULE},
        _row(OK, TURN, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    "prophecy off turn": (
        "post",
        "/api/v1/games/{id}/actions",
        {"action": {"type": "set_prophecy", "source": "accept card.red"}},
        # Nobody is prophet: the dealer (to act) gets the engine's refusal, another seat
        # may not act off turn; never a 500.
        _row(
            (400, "illegal_action"),
            TURN,
            NOT_SEATED,
            NO_ACCOUNT,
            NOT_SEATED,
            READ_ONLY,
        ),
    ),
    "moves": ("get", "/api/v1/games/{id}/moves", None, _row(OK, OK, OK, OK, OK, OK)),
    "export": (
        "get",
        "/api/v1/games/{id}/export",
        None,
        _row(UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED, UNFINISHED),
    ),
    "join": (
        "post",
        "/api/v1/games/{id}/join",
        None,
        _row(SEATED, SEATED, FULL, NO_ACCOUNT, FULL, READ_ONLY),
    ),
    "disputes": (
        "post",
        "/api/v1/games/{id}/disputes",
        {"reason": "The rule judged my card wrongly."},
        _row(CREATED, CREATED, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    "list": ("get", "/api/v1/games/?game_type=eleusis", None, _row(OK, OK, OK, OK, OK, OK)),
    "create": (
        "post",
        "/api/v1/games/",
        {"game_type": "eleusis", "player_count": 4, "rated": False},
        _row(CREATED, CREATED, CREATED, NO_ACCOUNT, CREATED, READ_ONLY),
    ),
    "leaderboard": (
        "get",
        "/api/v1/leaderboard?game_type=eleusis&player_count=5",
        None,
        _row(OK, OK, OK, OK, OK, OK),
    ),
}
CASES = [(name, role) for name in ENDPOINTS for role in ROLES]


@pytest.fixture
def eleusis_clients(
    owner: Any,
    opponent: Any,
    third: Any,
    outsider: Any,
    staff: Any,
    bearer: Bearer,
    session: Callable[[Any], Client],
    anonymous: Client,
) -> tuple[Game, dict[str, Client]]:
    game = game_with_seed(
        creator=owner,
        seed="deal-0",  # seat 0 deals first (E04)
        game_type="eleusis",
        player_count=4,
        rated=False,
        options={"hand_size": 4, "sanity_walks": 20},
        bots=[(3, "novice")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    assert game.to_act_seat == 0
    return game, {
        "actor": bearer(owner),
        "seated": bearer(opponent),
        "outsider": bearer(outsider),
        "anonymous": anonymous,
        "staff": session(staff),
        "reader": bearer(owner, scopes=("read",)),
    }


@pytest.mark.parametrize(("name", "role"), CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_each_role_gets_the_same_answer_from_a_new_eleusis_game(
    name: str, role: str, eleusis_clients: tuple[Game, dict[str, Client]]
) -> None:
    game, clients = eleusis_clients
    method, path, body, expected = ENDPOINTS[name]
    response = getattr(clients[role], method)(path.format(id=game.pk), body, format="json")
    status, code = expected[role]
    if code is None:
        assert response.status_code == status, response.content[:300]
    else:
        assert_error(response, status, code)


def test_only_the_dealer_sees_the_rule(eleusis_clients: tuple[Game, dict[str, Client]]) -> None:
    game, clients = eleusis_clients
    answer = clients["actor"].post(
        f"/api/v1/games/{game.pk}/actions", {"action": RULE}, format="json"
    )
    assert answer.status_code == 200
    source = json.dumps(answer.json()["dealer_secret"]["source"])[1:-1]  # as JSON writes it
    for role, client in clients.items():
        text = client.get(f"/api/v1/games/{game.pk}/").content.decode()
        assert (source in text) == (role in ("actor", "reader")), role
