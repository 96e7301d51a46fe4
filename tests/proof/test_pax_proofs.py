"""The authorization matrix, CSRF and hostile input on a Pax Illuminaten game (issue 25):
the same roles get the same answers from every game route as for the other games; the
table's action form needs its CSRF token; malformed actions of H.7 and hostile table
options and query parameters are clear 4xx answers with the engine's code, never a
500, and leave the game unchanged.

Roles: actor (seat 0, to act), seated (seat 1), outsider, anonymous, staff (web
session, not seated), reader (the actor's read-only token)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client as DjangoClient

from engine.pax import engine as pax_engine
from games import kinds, services
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error, fingerprint, game_url
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
STALE = (409, "version_conflict")
END = {"type": "end"}  # refused now (the Action phase has not begun), by the engine


def _row(*outcomes: tuple[int, str | None]) -> dict[str, tuple[int, str | None]]:
    return dict(zip(ROLES, outcomes, strict=True))


ENDPOINTS: dict[str, tuple[str, str, Any, dict[str, tuple[int, str | None]]]] = {
    "view": ("get", "/api/v1/games/{id}/", None, _row(OK, OK, OK, OK, OK, OK)),
    "action": (
        "post",
        "/api/v1/games/{id}/actions",
        {"action": {"type": "nuke"}},
        _row((400, "illegal_action"), TURN, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    # A stale version: refused before anything is looked at (15.5.2's refusals are in
    # tests/api/test_pax_undo.py).
    "undo": (
        "post",
        "/api/v1/games/{id}/undo",
        {"version": 10**6},
        _row(STALE, STALE, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
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
        {"reason": "The Oust's reveal looked wrong to me."},
        _row(CREATED, CREATED, NOT_SEATED, NO_ACCOUNT, NOT_SEATED, READ_ONLY),
    ),
    "list": ("get", "/api/v1/games/?game_type=pax", None, _row(OK, OK, OK, OK, OK, OK)),
    "create": (
        "post",
        "/api/v1/games/",
        {"game_type": "pax", "player_count": 2, "rated": False},
        _row(CREATED, CREATED, CREATED, NO_ACCOUNT, CREATED, READ_ONLY),
    ),
    "leaderboard": (
        "get",
        "/api/v1/leaderboard?game_type=pax&player_count=3",
        None,
        _row(OK, OK, OK, OK, OK, OK),
    ),
}
CASES = [(name, role) for name in ENDPOINTS for role in ROLES]
MALFORMED = {
    "not an object": ["influence"],
    "no type": {"by": "main"},
    "a type nobody knows": {"type": "nuke"},
    "missing keys": {"type": "influence", "by": "main"},
    "extra key": {"type": "end", "eval": "__import__('os')"},
    "target off the map": {"type": "influence", "by": "main", "target": [99, 99], "n": 1},
    "target not a position": {"type": "influence", "by": "main", "target": "here", "n": 1},
    "n a string": {"type": "influence", "by": "main", "target": [2, 4], "n": "3"},
    "n huge": {"type": "influence", "by": "main", "target": [2, 4], "n": 10**40},
    "n true": {"type": "influence", "by": "main", "target": [2, 4], "n": True},
    "by unknown": {"type": "scout", "by": "magic", "acting": "placard", "target": [2, 4]},
    "a card nobody has": {"type": "oust_card", "card": "PIL999"},
    "a decision of another kind": {"type": "pay", "faction": "NOB", "exchange": False},
    "deep nesting": {"type": "end", "x": [[[[[[[[[[[]]]]]]]]]]]},
}


@pytest.fixture
def pax_table(owner: Any, opponent: Any, third: Any) -> Game:
    """A 3-seat Pax table waiting on a person (the engine seats by R12; the actor is
    whoever is to act)."""
    game = game_with_seed(
        creator=owner, seed="proof-pax-0", game_type="pax", player_count=3, rated=False
    )
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    return server_steps(game)


@pytest.fixture
def pax_clients(
    pax_table: Game,
    owner: Any,
    opponent: Any,
    third: Any,
    outsider: Any,
    staff: Any,
    bearer: Bearer,
    session: Callable[[Any], Client],
    anonymous: Client,
) -> tuple[Game, dict[str, Client]]:
    people = [owner, opponent, third]
    actor = people[pax_table.to_act_seat]
    other = people[(pax_table.to_act_seat + 1) % 3]
    return pax_table, {
        "actor": bearer(actor),
        "seated": bearer(other),
        "outsider": bearer(outsider),
        "anonymous": anonymous,
        "staff": session(staff),
        "reader": bearer(actor, scopes=("read",)),
    }


@pytest.mark.parametrize(("name", "role"), CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_each_role_gets_the_same_answer_from_a_pax_game(
    name: str, role: str, pax_clients: tuple[Game, dict[str, Client]]
) -> None:
    game, clients = pax_clients
    method, path, body, expected = ENDPOINTS[name]
    before = fingerprint(game)
    response = getattr(clients[role], method)(path.format(id=game.pk), body, format="json")
    status, code = expected[role]
    if code is None:
        assert response.status_code == status, response.content[:300]
    else:
        assert_error(response, status, code)
    if name in ("action", "undo", "view", "moves", "export"):
        assert fingerprint(game) == before


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_action_is_a_400_with_the_engines_code_over_the_api_and_the_table(
    name: str, pax_table: Game, owner: Any, opponent: Any, third: Any, bearer: Bearer
) -> None:
    actor = [owner, opponent, third][pax_table.to_act_seat]
    before = fingerprint(pax_table)
    response = bearer(actor).post(
        game_url(pax_table, "actions"), {"action": MALFORMED[name]}, format="json"
    )
    if name == "not an object":
        assert_error(response, 400, "invalid_request")
    else:
        body = assert_error(response, 400, "illegal_action")
        assert isinstance(body["reason"], str), body  # the engine's own code
        assert body["reason"]
        assert body["detail"]
    assert fingerprint(pax_table) == before
    web = DjangoClient()
    web.force_login(actor)
    answer = web.post(
        f"/games/{pax_table.pk}/act",
        {"action": json.dumps(MALFORMED[name]), "version": str(pax_table.version)},
        HTTP_HX_REQUEST="true",
    )
    assert 400 <= answer.status_code < 500, (name, answer.status_code)
    assert fingerprint(pax_table) == before


def test_the_tables_action_form_needs_its_csrf_token(
    pax_table: Game, owner: Any, opponent: Any, third: Any
) -> None:
    actor = [owner, opponent, third][pax_table.to_act_seat]
    state = kinds.of(pax_table).load(pax_table.snapshot)
    action = pax_engine.legal_actions(state, pax_table.to_act_seat)[0]
    web = DjangoClient(enforce_csrf_checks=True)
    web.force_login(actor)
    before = fingerprint(pax_table)
    refused = web.post(
        f"/games/{pax_table.pk}/act",
        {"action": json.dumps(action), "version": str(pax_table.version)},
    )
    assert refused.status_code == 403
    assert fingerprint(pax_table) == before
    page = web.get(f"/games/{pax_table.pk}/")
    token = page.cookies["csrftoken"].value
    accepted = web.post(
        f"/games/{pax_table.pk}/act",
        {"action": json.dumps(action), "version": str(pax_table.version)},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert accepted.status_code == 200
    assert fingerprint(pax_table) != before


@pytest.mark.parametrize(
    "pos", ["", "99,99", "a,b", "2,4,6", "<script>", "1" * 5000, "2,4%00", "-1,-1"]
)
def test_a_hostile_picked_cell_shows_the_table_without_actions_for_it(
    pos: str, pax_table: Game, owner: Any
) -> None:
    web = DjangoClient()
    web.force_login(owner)
    response = web.get(f"/games/{pax_table.pk}/", {"pos": pos, "part": "table"})
    assert response.status_code == 200
    assert "<script>" not in response.content.decode().split("</h1>", 1)[1]


def test_a_pax_table_refuses_hostile_options_with_a_400(owner: Any, bearer: Bearer) -> None:
    for options in (
        {"round_cap": "14"},
        {"round_cap": 0},
        {"round_cap": -3},
        {"round_cap": 1.5},
        {"round_cap": True},
        {"round_cap": [1]},
        {"seed": "mine"},
        {"x" * 10_000: 1},
    ):
        response = bearer(owner).post(
            "/api/v1/games/",
            {"game_type": "pax", "player_count": 3, "rated": False, "options": options},
            format="json",
        )
        assert_error(response, 400, "invalid_request")
    assert Game.objects.count() == 0
