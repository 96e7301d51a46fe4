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
from django.test import Client as DjangoClient

from games import selectors, services
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error
from tests.api.test_authorization import ROLES
from tests.helpers import game_with_seed, server_steps

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


# The table's own pages (issue 24, item 4), by web session: the rule check is the dealer's
# alone while choosing the rule; a round's verification is anyone's once it is revealed.
WEB_ROLES = ("actor", "seated", "outsider", "anonymous", "staff")
LOGIN = "302 login"


def _web(users: dict[str, Any], role: str) -> DjangoClient:
    client = DjangoClient()
    if users.get(role) is not None:
        client.force_login(users[role])
    return client


def _status(response: Any) -> str:
    if response.status_code == 302 and "/accounts/login/" in response["Location"]:
        return LOGIN
    return str(response.status_code)


def test_who_may_check_a_rule_and_verify_a_round_from_the_web(
    owner: Any, opponent: Any, third: Any, outsider: Any, staff: Any
) -> None:
    game = game_with_seed(
        creator=owner,
        seed="deal-0",  # seat 0 deals first (E04)
        game_type="eleusis",
        player_count=4,
        rated=False,
        options={"hand_size": 2, "sanity_walks": 20, "round_limit": 1},
        bots=[(3, "novice")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    users = {"actor": owner, "seated": opponent, "outsider": outsider, "staff": staff}
    check = f"/games/{game.pk}/rule-check"
    verify = f"/games/{game.pk}/rounds/1/verify"
    expected = {
        "check": ("200", "403", "403", LOGIN, "403"),
        "verify before the reveal": ("404", "404", "404", "404", "404"),
        "table": ("200", "200", "200", "200", "200"),
    }
    got = {
        "check": tuple(
            _status(_web(users, r).post(check, {"source": "accept card.red"})) for r in WEB_ROLES
        ),
        "verify before the reveal": tuple(_status(_web(users, r).get(verify)) for r in WEB_ROLES),
        "table": tuple(_status(_web(users, r).get(f"/games/{game.pk}/")) for r in WEB_ROLES),
    }
    assert got == expected
    # Nobody but the dealer sets the rule from the table.
    for role in ("seated", "outsider", "staff"):
        answer = _web(users, role).post(
            f"/games/{game.pk}/act",
            {"do": "set_rule", "source": "accept card.red", "version": str(game.version)},
        )
        assert answer.status_code in (302, 403, 409), role
    game.refresh_from_db()
    assert game.to_act_seat == 0
    # The round played to its end: its verification is everyone's; the check no one's.
    people = {0: owner, 1: opponent, 2: third}
    services.action_submit(game_id=game.pk, user=owner, action=RULE, expected_version=None)
    for _ in range(200):
        game = server_steps(game)
        view = selectors.game_view(game=game, user=people[game.to_act_seat or 0])
        if view["round"]["record"] is not None or game.to_act_seat is None:
            break
        action = next(a for a in view["legal_actions"] if "template" not in a)
        services.action_submit(
            game_id=game.pk, user=people[game.to_act_seat], action=action, expected_version=None
        )
    game.refresh_from_db()
    statuses = tuple(_status(_web(users, r).get(verify)) for r in WEB_ROLES)
    assert statuses == ("200",) * 5
    assert "Round 1 verifies" in _web(users, "anonymous").get(verify).content.decode()
    checks = tuple(
        _status(_web(users, r).post(check, {"source": "accept card.red"})) for r in WEB_ROLES
    )
    assert checks == ("403", "403", "403", LOGIN, "403")
