"""The account endpoints (notifications, preferences, webhooks) refuse malformed JSON and
oversized bodies like the game API: a clear 4xx in the API's error shape, nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client as DjangoClient

from games.models import ApiToken, Notification, Player, Webhook
from tests.api.conftest import Bearer
from tests.api.support import assert_error

pytestmark = pytest.mark.django_db

OVER_LIMIT = 64 * 1024 + 1

# (method, address) of every account endpoint that reads a JSON body.
WITH_BODY = [
    ("post", "/api/v1/webhooks"),
    ("patch", "/api/v1/notifications/preferences"),
]
# Posts that read no body (marking notifications read, all or one) still refuse an
# oversized one.
ALL_WRITES = [
    *WITH_BODY,
    ("post", "/api/v1/notifications/read"),
    ("post", "/api/v1/notifications/1/read"),
]


def _state(owner: Any) -> tuple[Any, ...]:
    player = Player.objects.filter(user=owner).first()
    return (
        Webhook.objects.count(),
        Notification.objects.filter(read_at__isnull=False).count(),
        json.dumps(player.notification_preferences if player else None, sort_keys=True),
    )


@pytest.mark.parametrize(("method", "url"), WITH_BODY)
@pytest.mark.parametrize("garbage", ['{"url": ', "[1, 2", "\x00\x01"])
def test_malformed_json_is_a_400_malformed_json_and_changes_nothing(
    method: str, url: str, garbage: str, owner: Any, bearer: Bearer
) -> None:
    client = bearer(owner)
    before = _state(owner)
    response = getattr(client, method)(url, data=garbage, content_type="application/json")
    assert_error(response, 400, "malformed_json")
    assert _state(owner) == before


@pytest.mark.parametrize(("method", "url"), ALL_WRITES)
def test_an_oversized_body_is_a_413_payload_too_large_and_changes_nothing(
    method: str, url: str, owner: Any, bearer: Bearer
) -> None:
    client = bearer(owner)
    before = _state(owner)
    body = json.dumps({"url": "https://example.org/hook", "pad": "x" * OVER_LIMIT})
    response = getattr(client, method)(url, data=body, content_type="application/json")
    assert_error(response, 413, "payload_too_large")
    assert _state(owner) == before


@pytest.mark.parametrize(("method", "url"), WITH_BODY)
def test_a_body_that_is_not_json_is_a_415_with_the_fix_named(
    method: str, url: str, owner: Any, bearer: Bearer
) -> None:
    client = bearer(owner)
    response = getattr(client, method)(url, data="url=x", content_type="text/plain")
    error = assert_error(response, 415, "unsupported_media_type")
    assert "application/json" in error["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"url": "not a url"},
        {"url": "ftp://example.org/hook"},
        {"url": ["https://example.org/hook"]},
        {"url": "https://example.org/hook", "kinds": ["no_such_kind"]},
    ],
)
def test_webhook_fields_are_validated_with_the_field_named(
    body: dict[str, Any], owner: Any, bearer: Bearer
) -> None:
    response = bearer(owner).post("/api/v1/webhooks", data=body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] in {"invalid_request", "invalid_webhook"}
    assert Webhook.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"email": "yes"},
        {"quiet_hours": {"start": "25:00", "end": "07:00"}},
        {"no_such_preference": True},
        [],
    ],
)
def test_preferences_are_validated(body: Any, owner: Any, bearer: Bearer) -> None:
    before = _state(owner)
    response = bearer(owner).patch("/api/v1/notifications/preferences", data=body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_request"
    assert _state(owner) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ('{"name": ', 400, "malformed_json"),
        ("[1, 2", 400, "malformed_json"),
        (json.dumps({"name": "x" * OVER_LIMIT}), 413, "payload_too_large"),
    ],
    ids=["cut", "unclosed", "oversized"],
)
def test_token_creation_refuses_bad_bodies_and_issues_nothing(
    body: str, status: int, code: str, owner: Any
) -> None:
    # Tokens are issued from a signed-in web session (a bearer token may not mint more).
    client = DjangoClient()
    client.force_login(owner)
    response = client.post("/api/v1/tokens", data=body, content_type="application/json")
    assert_error(response, status, code)
    assert ApiToken.objects.count() == 0
