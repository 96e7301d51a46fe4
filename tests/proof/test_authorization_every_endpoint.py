"""The authorization matrix, extended from tests/api/test_authorization.py to every API
endpoint: the URL resolver is walked, and every (route, method) that answers under
/api/v1/ must appear either in that module's matrix or in ``MORE`` below.

Roles (as in tests/api): actor (seated, to act), seated (seated, not to act), outsider,
anonymous, staff (web session), reader (the actor's read-only token).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from games import services, webhooks
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error
from tests.api.test_authorization import ENDPOINTS, ROLES

pytestmark = pytest.mark.django_db

Outcome = tuple[int, str | None]
OK: Outcome = (200, None)
CREATED: Outcome = (201, None)
GONE: Outcome = (204, None)
NO_ACCOUNT: Outcome = (401, "not_authenticated")
READ_ONLY: Outcome = (403, "insufficient_scope")
HIDDEN: Outcome = (404, "not_found")
NEEDS_SESSION: Outcome = (403, "session_required")
NOT_CREATOR: Outcome = (403, "forbidden")


def _row(*outcomes: Outcome) -> dict[str, Outcome]:
    return dict(zip(ROLES, outcomes, strict=True))


# name -> (method, path with {id} {dispute} {webhook} {token}, body, outcome per role)
MORE: dict[str, tuple[str, str, dict[str, Any] | None, dict[str, Outcome]]] = {
    "disputes": ("get", "/api/v1/disputes/", None, _row(OK, OK, OK, NO_ACCOUNT, OK, OK)),
    "dispute": (
        "get",
        "/api/v1/disputes/{dispute}",
        None,
        _row(OK, OK, HIDDEN, NO_ACCOUNT, OK, OK),
    ),
    "revoke token": (
        "delete",
        "/api/v1/tokens/{token}",
        None,
        _row(NEEDS_SESSION, NEEDS_SESSION, NEEDS_SESSION, NO_ACCOUNT, HIDDEN, NEEDS_SESSION),
    ),
    "notifications": (
        "get",
        "/api/v1/notifications",
        None,
        _row(OK, OK, OK, NO_ACCOUNT, OK, OK),
    ),
    "notifications read": (
        "post",
        "/api/v1/notifications/read",
        None,
        _row(OK, OK, OK, NO_ACCOUNT, OK, READ_ONLY),
    ),
    "notification read": (
        "post",
        "/api/v1/notifications/999999/read",
        None,
        _row(HIDDEN, HIDDEN, HIDDEN, NO_ACCOUNT, HIDDEN, READ_ONLY),
    ),
    # Staff and the outsider never played: they have no player profile yet, and still
    # read and change their preferences (a PATCH used to answer 404 there).
    "preferences": (
        "get",
        "/api/v1/notifications/preferences",
        None,
        _row(OK, OK, OK, NO_ACCOUNT, OK, OK),
    ),
    "preferences change": (
        "patch",
        "/api/v1/notifications/preferences",
        {},
        _row(OK, OK, OK, NO_ACCOUNT, OK, READ_ONLY),
    ),
    "webhooks": ("get", "/api/v1/webhooks", None, _row(OK, OK, OK, NO_ACCOUNT, OK, OK)),
    "webhook create": (
        "post",
        "/api/v1/webhooks",
        {"url": "https://hooks.example.org/indulgence", "kinds": []},
        _row(CREATED, CREATED, CREATED, NO_ACCOUNT, CREATED, READ_ONLY),
    ),
    "webhook": (
        "get",
        "/api/v1/webhooks/{webhook}",
        None,
        _row(OK, HIDDEN, HIDDEN, NO_ACCOUNT, HIDDEN, OK),
    ),
    "webhook delete": (
        "delete",
        "/api/v1/webhooks/{webhook}",
        None,
        _row(GONE, HIDDEN, HIDDEN, NO_ACCOUNT, HIDDEN, READ_ONLY),
    ),
    "webhook deliveries": (
        "get",
        "/api/v1/webhooks/{webhook}/deliveries",
        None,
        _row(OK, HIDDEN, HIDDEN, NO_ACCOUNT, HIDDEN, OK),
    ),
    "game stream": (
        "get",
        "/api/v1/games/{id}/stream",
        None,
        _row(OK, OK, OK, OK, OK, OK),
    ),
    "account stream": ("get", "/api/v1/stream", None, _row(OK, OK, OK, NO_ACCOUNT, OK, OK)),
    # The games the server hosts (issue 24): public, as the schema.
    "game types": ("get", "/api/v1/game-types/", None, _row(OK, OK, OK, OK, OK, OK)),
    # Only the game's creator may abort it (nobody has moved yet): the owner, seat 0,
    # who is "seated" here (seat 2, the first Ruler of this deal, is to act).
    "abort": (
        "post",
        "/api/v1/games/{id}/abort",
        {},
        _row(NOT_CREATOR, OK, NOT_CREATOR, NO_ACCOUNT, NOT_CREATOR, READ_ONLY),
    ),
}
# Served for documentation, not data: anyone may read them.
PUBLIC_DOCS = {"schema", "docs"}


def _walk(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _walk(entry, route)
        else:
            yield route, entry


def api_routes() -> set[str]:
    """The URL name of every API route (named routes; the other-slash twins share a view)."""
    names = set()
    for route, pattern in _walk(get_resolver()):
        if route.startswith("api/v1/") and pattern.name:
            names.add(pattern.name)
    return names


def _sample(path: str) -> str:
    return path.format(id=1, dispute=1, webhook=1, token=1).split("?")[0]


def test_every_api_route_is_in_an_authorization_matrix() -> None:
    covered = {resolve(_sample(path)).url_name for (_m, path, _b), _ in ENDPOINTS.values()}
    covered |= {resolve(_sample(path)).url_name for _m, path, _b, _o in MORE.values()}
    assert api_routes() - PUBLIC_DOCS == covered, api_routes() ^ covered


@pytest.fixture
def cast(
    game: Game,
    owner: Any,
    opponent: Any,
    third: Any,
    outsider: Any,
    staff: Any,
    bearer: Bearer,
    session: Callable[[Any], Client],
    anonymous: Client,
) -> dict[str, Any]:
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    actor = players[game.to_act_seat]
    dispute = services.dispute_create(game_id=game.pk, user=actor, reason="A card went missing.")
    token, _raw = services.token_issue(user=actor, name="spare", scopes=("read",))
    webhook = webhooks.webhook_create(user=actor, url="https://hooks.example.org/a", kinds=[])
    return {
        "clients": {
            "actor": bearer(actor),
            "seated": bearer(players[(game.to_act_seat + 1) % 3]),
            "outsider": bearer(outsider),
            "anonymous": anonymous,
            "staff": session(staff),
            "reader": bearer(actor, scopes=("read",)),
        },
        "ids": {"id": game.pk, "dispute": dispute.pk, "webhook": webhook.pk, "token": token.pk},
    }


CASES = [(name, role) for name in MORE for role in ROLES]


@pytest.mark.parametrize(("name", "role"), CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_it_answers_each_role_as_the_matrix_says(
    name: str, role: str, cast: dict[str, Any]
) -> None:
    method, path, body, expected = MORE[name]
    client = cast["clients"][role]
    url = path.format(**cast["ids"])
    response = getattr(client, method)(url, body, format="json")
    status, code = expected[role]
    if response.streaming:
        # An event stream: its status and type are what counts (closing it here would fire
        # request_finished and close the test transaction's connection).
        assert response.status_code == status
        assert response["Content-Type"].startswith("text/event-stream")
    elif code is None:
        assert response.status_code == status, getattr(response, "content", b"")[:300]
    else:
        assert_error(response, status, code)
