"""The OpenAPI schema and the docs page, and that the schema tells the truth."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from django.contrib.staticfiles import finders
from drf_spectacular.validation import validate_schema
from rest_framework import serializers
from rest_framework.test import APIClient

from games import account_api, notifications, services
from games.api import serializers as shapes
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, finished_game, game_url

pytestmark = pytest.mark.django_db

# Every endpoint of shared/design/api.md (except the event streams, served elsewhere).
API_MD_OPERATIONS = {
    ("/api/v1/games/", "get"),
    ("/api/v1/games/", "post"),
    ("/api/v1/games/{game_id}/", "get"),
    ("/api/v1/games/{game_id}/join", "post"),
    ("/api/v1/games/{game_id}/actions", "post"),
    ("/api/v1/games/{game_id}/moves", "get"),
    ("/api/v1/games/{game_id}/export", "get"),
    ("/api/v1/games/{game_id}/disputes", "post"),
    ("/api/v1/leaderboard", "get"),
    ("/api/v1/me", "get"),
    ("/api/v1/tokens", "get"),
    ("/api/v1/tokens", "post"),
    ("/api/v1/tokens/{token_id}", "delete"),
}
# docs/notifications.md's endpoints (games/account_api.py, DRF views like the above).
ACCOUNT_OPERATIONS = {
    ("/api/v1/notifications", "get"),
    ("/api/v1/notifications/read", "post"),
    ("/api/v1/notifications/{notification_id}/read", "post"),
    ("/api/v1/notifications/preferences", "get"),
    ("/api/v1/notifications/preferences", "patch"),
    ("/api/v1/webhooks", "get"),
    ("/api/v1/webhooks", "post"),
    ("/api/v1/webhooks/{webhook_id}", "get"),
    ("/api/v1/webhooks/{webhook_id}", "delete"),
    ("/api/v1/webhooks/{webhook_id}/deliveries", "get"),
}
# docs/streams.md's Server-Sent Events (games/streams.py, plain Django views).
STREAM_OPERATIONS = {
    ("/api/v1/games/{game_id}/stream", "get"),
    ("/api/v1/stream", "get"),
}
REST_OPERATIONS = API_MD_OPERATIONS | ACCOUNT_OPERATIONS
ALL_OPERATIONS = REST_OPERATIONS | STREAM_OPERATIONS


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The served schema, fetched once for the module (generating it takes a while)."""
    response = APIClient().get("/api/v1/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    document: dict[str, Any] = yaml.safe_load(response.content)
    return document


def test_it_serves_a_valid_openapi_3_schema(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)  # raises on any violation of the OpenAPI 3 JSON schema


def test_it_documents_every_endpoint_of_the_contract_once(schema: dict[str, Any]) -> None:
    operations = {
        (path, method)
        for path, item in schema["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }
    assert operations >= ALL_OPERATIONS
    paths = {path.rstrip("/") for path, _method in ALL_OPERATIONS}
    documented = [path.rstrip("/") for path in schema["paths"] if path.rstrip("/") in paths]
    assert sorted(documented) == sorted(paths)  # the other-slash routes are left out


def test_it_documents_errors_examples_and_bearer_auth_everywhere(schema: dict[str, Any]) -> None:
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["bearerAuth"]["description"],
    }
    for path, method in REST_OPERATIONS:
        operation = schema["paths"][path][method]
        errors = {status: r for status, r in operation["responses"].items() if status >= "400"}
        assert "429" in errors, (path, method)
        for response in errors.values():
            content = response["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}
            for example in content["examples"].values():
                assert set(example["value"]) == {"code", "detail"}
        if path != "/api/v1/tokens/{token_id}" and not path.startswith("/api/v1/tokens"):
            assert {"bearerAuth": []} in operation["security"], (path, method)


def test_it_marks_which_endpoints_anonymous_callers_may_use(schema: dict[str, Any]) -> None:
    anonymous_ok = {
        (path, method)
        for path, method in ALL_OPERATIONS
        if {} in schema["paths"][path][method]["security"]
    }
    assert anonymous_ok == {
        ("/api/v1/games/", "get"),
        ("/api/v1/games/{game_id}/", "get"),
        ("/api/v1/games/{game_id}/moves", "get"),
        ("/api/v1/games/{game_id}/export", "get"),
        ("/api/v1/games/{game_id}/stream", "get"),
        ("/api/v1/leaderboard", "get"),
    }


def test_it_gives_an_example_for_every_account_endpoint(schema: dict[str, Any]) -> None:
    for path, method in ACCOUNT_OPERATIONS:
        operation = schema["paths"][path][method]
        assert operation["tags"] in (["notifications"], ["webhooks"]), (path, method)
        assert operation["summary"], (path, method)
        success = next(r for status, r in operation["responses"].items() if status < "300")
        documented = success.get("content", {}).get("application/json", {}).get("examples")
        assert documented or "204" in operation["responses"], (path, method)


def test_it_documents_the_event_streams(schema: dict[str, Any]) -> None:
    for path, method in STREAM_OPERATIONS:
        operation = schema["paths"][path][method]
        assert operation["tags"] == ["streams"]
        assert {"bearerAuth": []} in operation["security"]
        assert {"cookieAuth": []} in operation["security"]
        parameters = {(p["in"], p["name"]) for p in operation["parameters"]}
        assert {("header", "Last-Event-ID"), ("query", "last_event_id")} <= parameters
        assert ("path", "game_id") in parameters or "{game_id}" not in path
        content = operation["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"]
        event = content["text/event-stream"]["schema"]  # one message, as OpenAPI 3.2 reads it
        assert set(event["properties"]) == {"id", "event", "data", "retry"}
        assert "data:" in operation["description"]
        for status in ("400", "401", "403"):
            error = operation["responses"][status]["content"]["application/json"]
            assert error["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}
    assert "404" in schema["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]


def test_it_gives_request_and_response_examples_for_the_main_endpoints(
    schema: dict[str, Any],
) -> None:
    create = schema["paths"]["/api/v1/games/"]["post"]
    assert create["requestBody"]["content"]["application/json"]["examples"]
    action = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]
    assert action["requestBody"]["content"]["application/json"]["examples"]
    assert action["responses"]["200"]["content"]["application/json"]["examples"]
    headers = [p["name"] for p in action["parameters"] if p["in"] == "header"]
    assert headers == ["Idempotency-Key"]


def test_it_serves_the_schema_as_json_too(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Indulgence Online API"


def test_it_renders_the_docs_page_from_local_files_only(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="swagger-ui"' in page
    assert "/api/v1/schema/" in page
    scripts = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in scripts
    assert all(url.startswith("/") for url in scripts), scripts
    # No CDN host anywhere (not a bare "cdn": the page's random CSRF token may contain it).
    assert not re.search(r"https?://|cdn\.|jsdelivr|unpkg", page, re.IGNORECASE)
    for url in scripts:
        assert finders.find(url.removeprefix("/static/")), url


# --- the documented shapes are the real ones ---------------------------------------------


def assert_shape(field: serializers.Field[Any, Any, Any, Any], value: Any, where: str) -> None:
    """``value`` has exactly the keys ``field`` documents, recursively, with valid values."""
    if value is None:
        assert field.allow_null, f"{where} is null but not documented as nullable"
        return
    if isinstance(field, serializers.ListSerializer):
        assert isinstance(value, list), where
        assert field.child is not None
        for index, item in enumerate(value):
            assert_shape(field.child, item, f"{where}[{index}]")
        return
    if isinstance(field, serializers.Serializer):
        assert isinstance(value, dict), where
        documented = dict(field.fields)
        assert set(value) <= set(documented), (
            f"{where}: undocumented {set(value) - set(documented)}"
        )
        required = {name for name, f in documented.items() if f.required}
        assert required <= set(value), f"{where}: missing {required - set(value)}"
        for name, item in value.items():
            nested = documented[name]
            assert nested is not None
            assert_shape(nested, item, f"{where}.{name}")
        return
    field.run_validation(value)  # raises ValidationError when the type is wrong


def test_it_documents_the_view_as_it_is(
    game: Game, owner: Any, opponent: Any, third: Any, bearer: Bearer, anonymous: Client
) -> None:
    assert game.to_act_seat is not None
    actor = bearer([owner, opponent, third][game.to_act_seat])
    view = actor.get(game_url(game)).json()
    assert set(view) == set(shapes.GameViewResponse().fields)  # nothing left undocumented
    assert_shape(shapes.GameViewResponse(), view, "view")
    after = actor.post(
        game_url(game, "actions"), {"action": view["legal_actions"][0]}, format="json"
    ).json()
    assert_shape(shapes.GameViewResponse(), after, "view after an action")
    assert_shape(shapes.GameViewResponse(), anonymous.get(game_url(game)).json(), "spectator")
    open_game = services.game_create(creator=owner, player_count=4)
    assert_shape(shapes.GameViewResponse(), anonymous.get(game_url(open_game)).json(), "open")
    assert_shape(shapes.MovesResponse(), anonymous.get(game_url(game, "moves")).json(), "moves")
    page = actor.get("/api/v1/games/").json()
    assert_shape(shapes.GamePageResponse(), page, "games")
    assert_shape(shapes.MeResponse(), actor.get("/api/v1/me").json(), "me")
    dispute = actor.post(game_url(game, "disputes"), {"reason": "Why?"}, format="json").json()
    assert_shape(shapes.DisputeResponse(), dispute, "dispute")


def test_it_documents_notifications_and_webhooks_as_they_are(
    game: Game, owner: Any, bearer: Bearer, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    client = bearer(owner)
    response = client.post(
        "/api/v1/webhooks", {"url": "http://127.0.0.1:9/hook", "kinds": []}, format="json"
    )
    assert response.status_code == 201
    hook = response.json()
    assert_shape(account_api.WebhookCreatedResponse(), hook, "new webhook")
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=owner.pk, kind="your_turn", title="Your turn", game=game, data={"seat": 0}
            ),
            notifications.NotificationSpec(user_id=owner.pk, kind="dispute_update", title="?"),
        ]
    )
    page = client.get("/api/v1/notifications").json()
    assert len(page["results"]) >= 2
    assert_shape(account_api.NotificationPageResponse(), page, "notifications")
    read = client.post(f"/api/v1/notifications/{page['results'][0]['id']}/read").json()
    assert_shape(account_api.MarkedReadResponse(), read, "read one")
    read = client.post("/api/v1/notifications/read").json()
    assert_shape(account_api.MarkedReadResponse(), read, "read all")
    preferences = client.get("/api/v1/notifications/preferences").json()
    assert_shape(account_api.PreferencesResponse(), preferences, "preferences")
    quiet = {"quiet_hours": {"start": "22:00", "end": "07:00", "timezone": "UTC"}}
    changed = client.patch("/api/v1/notifications/preferences", quiet, format="json").json()
    assert_shape(account_api.PreferencesResponse(), changed, "changed preferences")
    listed = client.get("/api/v1/webhooks").json()
    assert_shape(account_api.WebhookResponse(many=True), listed, "webhooks")
    one = client.get(f"/api/v1/webhooks/{hook['id']}").json()
    assert_shape(account_api.WebhookResponse(), one, "webhook")
    deliveries = client.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert deliveries["results"]
    assert_shape(account_api.DeliveryPageResponse(), deliveries, "deliveries")


def test_it_documents_the_record_the_leaderboard_and_tokens_as_they_are(
    owner: Any, opponent: Any, third: Any, anonymous: Client, session: Any
) -> None:
    game = finished_game(owner, opponent, third, rated=True)
    view = anonymous.get(game_url(game)).json()
    assert view["status"] == "finished"
    assert_shape(shapes.GameViewResponse(), view, "finished view")
    assert_shape(shapes.ExportResponse(), anonymous.get(game_url(game, "export")).json(), "record")
    board = anonymous.get("/api/v1/leaderboard?variant=expert&player_count=3").json()
    assert board["entries"]
    assert_shape(shapes.LeaderboardResponse(), board, "leaderboard")
    client = session(owner)
    created = client.post("/api/v1/tokens", {}, format="json").json()
    assert_shape(shapes.TokenCreatedResponse(), created, "new token")
    assert_shape(shapes.TokenPageResponse(), client.get("/api/v1/tokens").json(), "tokens")
