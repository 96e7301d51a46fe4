"""The OpenAPI schema at /api/v1/schema/ matches what the server really answers.

Real responses (create, join, view, action, moves, export, list, me, leaderboard, and
refusals) are validated against the response schema the schema gives for that path,
method and status (OpenAPI 3.0 ``nullable`` turned into JSON Schema, and objects closed
with ``additionalProperties: false`` so that an undocumented field fails too). A client
generated from the schema by ``openapi-python-client`` (run here, into a temporary
directory) plays a whole game against the live server, every raw answer it gets
validated the same way.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from django.urls import get_resolver

from tests.openapi import json_schema

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GENERATOR = Path(sys.executable).parent / "openapi-python-client"


class Schema:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.components = json_schema(document["components"])
        self.checked: list[tuple[str, str, int]] = []

    def check(self, path: str, method: str, response: httpx.Response) -> Any:
        """Validate ``response`` against the schema of (path template, method, status)."""
        return self.check_raw(path, method, response.status_code, response.content)

    def check_raw(self, path: str, method: str, status_code: int, content: bytes) -> Any:
        operation = self.document["paths"][path][method]
        status = str(status_code)
        assert status in operation["responses"], f"{method} {path}: {status} is undocumented"
        schema = operation["responses"][status]["content"]["application/json"]["schema"]
        body = json.loads(content)
        validator = jsonschema.Draft202012Validator(
            {**json_schema(schema), "components": self.components}
        )
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        assert not errors, f"{method} {path} {status}: " + "; ".join(
            f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:5]
        )
        self.checked.append((path, method, status_code))
        return body


@pytest.fixture
def http(server: str) -> Iterator[Callable[[str | None], httpx.Client]]:
    clients: list[httpx.Client] = []

    def make(token: str | None) -> httpx.Client:
        headers = {"Connection": "close"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        client = httpx.Client(base_url=server, headers=headers, timeout=30)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


def fetch_schema(client: httpx.Client) -> dict[str, Any]:
    response = client.get("/api/v1/schema/", params={"format": "json"})
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def test_real_responses_match_the_schema(
    http: Callable[[str | None], httpx.Client], bot_token: Callable[[str], str]
) -> None:
    owner, guest, anonymous = http(bot_token("owner")), http(bot_token("guest")), http(None)
    schema = Schema(fetch_schema(anonymous))
    games, game = "/api/v1/games/", "/api/v1/games/{game_id}/"
    actions = "/api/v1/games/{game_id}/actions"

    # An open game that a second account joins (the join response), then a sandbox.
    body = {"player_count": 3, "rated": False, "bots": [{"seat": 1, "bot": "random"}]}
    open_game = schema.check(games, "post", owner.post(games, json=body))
    joined = guest.post(f"/api/v1/games/{open_game['id']}/join")
    schema.check("/api/v1/games/{game_id}/join", "post", joined)
    schema.check(
        "/api/v1/games/{game_id}/join", "post", guest.post(f"/api/v1/games/{open_game['id']}/join")
    )  # 409 already_seated

    sandbox = {
        "player_count": 4,
        "variant": "expert",
        "rated": False,
        "seed": "schema-1",
        "bots": [{"seat": s, "bot": "random"} for s in (1, 2, 3)],
    }
    game_id = schema.check(games, "post", owner.post(games, json=sandbox))["id"]
    url = f"/api/v1/games/{game_id}/"
    schema.check(
        "/api/v1/games/{game_id}/export", "get", anonymous.get(f"{url}export")
    )  # 409 game_not_finished
    schema.check(actions, "post", owner.post(f"{url}actions", json={"action": {"type": "x"}}))
    schema.check(
        actions, "post", owner.post(f"{url}actions", json={"action": {}, "version": 10**6})
    )
    schema.check(actions, "post", guest.post(f"{url}actions", json={"action": {"type": "pass"}}))
    schema.check(game, "get", anonymous.get("/api/v1/games/999999/"))  # 404
    schema.check(games, "post", anonymous.post(games, json=sandbox))  # 401
    schema.check(games, "post", owner.post(games, json={"player_count": 5}))  # 400

    rng = random.Random(7)
    for _ in range(10):  # some moves (the whole game: the generated client's test)
        view = schema.check(game, "get", owner.get(url))
        if not view["legal_actions"]:
            continue
        action = rng.choice(view["legal_actions"])
        sent = {"action": action, "version": view["version"]}
        schema.check(actions, "post", owner.post(f"{url}actions", json=sent))
    schema.check("/api/v1/games/{game_id}/moves", "get", anonymous.get(f"{url}moves"))
    schema.check("/api/v1/games/{game_id}/moves", "get", owner.get(f"{url}moves"))
    schema.check(game, "get", anonymous.get(url))  # the spectator's view
    schema.check(games, "get", owner.get(games, params={"mine": "true"}))
    schema.check(games, "get", anonymous.get(games, params={"status": "finished"}))
    schema.check("/api/v1/me", "get", owner.get("/api/v1/me"))
    schema.check("/api/v1/leaderboard", "get", anonymous.get("/api/v1/leaderboard"))
    statuses = {status for _, _, status in schema.checked}
    assert statuses >= {200, 201, 400, 401, 403, 404, 409}


def test_account_responses_match_the_schema(
    http: Callable[[str | None], httpx.Client], bot_token: Callable[[str], str], settings: Any
) -> None:
    """Notifications, preferences, webhooks and their deliveries, and the streams' refusals."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    owner, guest, anonymous = http(bot_token("owner")), http(bot_token("guest")), http(None)
    schema = Schema(fetch_schema(anonymous))
    webhooks, webhook = "/api/v1/webhooks", "/api/v1/webhooks/{webhook_id}"
    notes, preferences = "/api/v1/notifications", "/api/v1/notifications/preferences"

    # A webhook that refuses every connection (deliveries pile up as retrying), then a game
    # that fills: notifications for the owner, and their deliveries.
    hook = {"url": "http://127.0.0.1:9/hook", "kinds": []}
    created = schema.check(webhooks, "post", owner.post(webhooks, json=hook))
    schema.check(webhooks, "post", owner.post(webhooks, json={"url": "ftp://x", "kinds": []}))
    schema.check(webhooks, "post", owner.post(webhooks, json={"url": "https://x", "kinds": 3}))
    schema.check(webhooks, "get", owner.get(webhooks))
    schema.check(webhook, "get", owner.get(f"{webhooks}/{created['id']}"))
    schema.check(webhook, "get", guest.get(f"{webhooks}/{created['id']}"))  # 404
    schema.check(webhooks, "get", anonymous.get(webhooks))  # 401
    body = {"player_count": 3, "rated": False, "bots": [{"seat": 1, "bot": "random"}]}
    game = schema.check("/api/v1/games/", "post", owner.post("/api/v1/games/", json=body))
    guest.post(f"/api/v1/games/{game['id']}/join").raise_for_status()

    page = schema.check(notes, "get", owner.get(notes))
    assert page["results"], "joining and starting a game notifies the owner"
    schema.check(notes, "get", owner.get(notes, params={"unread": "true", "limit": 1}))
    schema.check(notes, "get", anonymous.get(notes))  # 401
    one = "/api/v1/notifications/{notification_id}/read"
    first = page["results"][-1]["id"]
    schema.check(one, "post", owner.post(f"{notes}/{first}/read"))
    schema.check(one, "post", guest.post(f"{notes}/{first}/read"))  # 404
    schema.check(f"{notes}/read", "post", owner.post(f"{notes}/read"))
    schema.check(notes, "get", owner.get(notes))  # read ones too

    deliveries = "/api/v1/webhooks/{webhook_id}/deliveries"
    listed = schema.check(deliveries, "get", owner.get(f"{webhooks}/{created['id']}/deliveries"))
    assert listed["results"], "every notification is a delivery to the webhook"
    schema.check(deliveries, "get", guest.get(f"{webhooks}/{created['id']}/deliveries"))  # 404

    schema.check(preferences, "get", owner.get(preferences))
    quiet = {"start": "22:00", "end": "07:30", "timezone": "Europe/Rome"}
    changed = owner.patch(preferences, json={"email_reminder": False, "quiet_hours": quiet})
    assert schema.check(preferences, "patch", changed)["quiet_hours"] == quiet
    schema.check(preferences, "patch", owner.patch(preferences, json={"quiet_hours": None}))
    schema.check(preferences, "patch", owner.patch(preferences, json={"email_nope": True}))
    schema.check(preferences, "get", guest.get(preferences))  # defaults, no quiet hours

    deleted = owner.delete(f"{webhooks}/{created['id']}")
    assert deleted.status_code == 204
    assert "204" in schema.document["paths"][webhook]["delete"]["responses"]
    schema.check(webhook, "delete", owner.delete(f"{webhooks}/{created['id']}"))  # 404

    # The streams' refusals are the API's error shape.
    schema.check("/api/v1/stream", "get", anonymous.get("/api/v1/stream"))  # 401
    game_stream = "/api/v1/games/{game_id}/stream"
    schema.check(game_stream, "get", anonymous.get("/api/v1/games/999999/stream"))  # 404
    bad = anonymous.get(f"/api/v1/games/{game['id']}/stream", params={"last_event_id": "x"})
    schema.check(game_stream, "get", bad)  # 400
    statuses = {(path, status) for path, _, status in schema.checked}
    assert {status for _, status in statuses} >= {200, 201, 400, 401, 404}


def _api_routes() -> set[str]:
    """Every /api/v1/ route the server answers, as OpenAPI path templates."""
    routes: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            text = prefix + str(pattern.pattern)
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, text)
            elif text.startswith("api/v1/") and "schema" not in text and "docs" not in text:
                template = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text).rstrip("$").lstrip("^")
                if "(" not in template and ".*" not in template:
                    routes.add("/" + template.rstrip("/"))

    walk(get_resolver().url_patterns, "")
    return routes


def test_the_schema_documents_every_api_endpoint(
    http: Callable[[str | None], httpx.Client],
) -> None:
    documented = {path.rstrip("/") for path in fetch_schema(http(None))["paths"]}
    missing = sorted(_api_routes() - documented)
    assert not missing, f"undocumented endpoints: {missing}"


def test_a_client_generated_from_the_schema_plays_a_whole_game_as_documented(
    http: Callable[[str | None], httpx.Client],
    bot_token: Callable[[str], str],
    server: str,
    tmp_path: Path,
) -> None:
    (tmp_path / "schema.json").write_bytes(http(None).get("/api/v1/schema/?format=json").content)
    assert GENERATOR.exists(), "pip install openapi-python-client (see tests/bots_kit)"
    config = tmp_path / "generator.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: nothing to install for it
    generated = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "indulgence_generated"),
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        package = "indulgence_generated"
        client_module = importlib.import_module(f"{package}.client")
        create = importlib.import_module(f"{package}.api.games.games_create")
        retrieve = importlib.import_module(f"{package}.api.games.games_retrieve")
        act = importlib.import_module(f"{package}.api.games.games_actions_create")
        export = importlib.import_module(f"{package}.api.games.games_export_retrieve")
        moves = importlib.import_module(f"{package}.api.games.games_moves_list")
        models = importlib.import_module(f"{package}.models")

        client = client_module.AuthenticatedClient(
            base_url=server, token=bot_token("generated"), headers={"Connection": "close"}
        )
        body = models.GameCreateRequest.from_dict(
            {
                "player_count": 3,
                "rated": False,
                "seed": "generated-1",
                "bots": [{"seat": 1, "bot": "random"}, {"seat": 2, "bot": "random"}],
            }
        )
        schema = Schema(fetch_schema(http(None)))
        game, actions = "/api/v1/games/{game_id}/", "/api/v1/games/{game_id}/actions"

        def checked(path: str, method: str, response: Any) -> Any:
            """The generated client's parsed answer, its raw body checked against the schema."""
            schema.check_raw(path, method, int(response.status_code), response.content)
            return response.parsed

        created = checked("/api/v1/games/", "post", create.sync_detailed(client=client, body=body))
        assert isinstance(created, models.GameViewResponse), created
        rng = random.Random(11)
        view = checked(game, "get", retrieve.sync_detailed(game_id=created.id, client=client))
        for _ in range(1000):
            assert isinstance(view, models.GameViewResponse), view
            if view.status.value == "finished":
                break
            if not view.legal_actions:  # the answer predates the bots' replies: look again
                view = checked(
                    game, "get", retrieve.sync_detailed(game_id=created.id, client=client)
                )
                continue
            choice = rng.choice(view.legal_actions)
            request = models.ActionRequest.from_dict(
                {"action": choice.to_dict(), "version": view.version}
            )
            view = checked(
                actions, "post", act.sync_detailed(game_id=created.id, client=client, body=request)
            )
        assert view.status.value == "finished"
        assert view.result is not None
        assert view.result.winner_seat in (0, 1, 2)
        record = checked(
            "/api/v1/games/{game_id}/export",
            "get",
            export.sync_detailed(game_id=created.id, client=client),
        )
        assert record.seed == "generated-1"
        checked(
            "/api/v1/games/{game_id}/moves",
            "get",
            moves.sync_detailed(game_id=created.id, client=client),
        )

        # The same generated client plays a whole game of New Eleusis (issue 24): the
        # view and the record are the schema's EleusisGameViewResponse and
        # EleusisExportResponse; actions are the view's explicit legal actions (an entry
        # with a "template" describes a family of actions).
        types = importlib.import_module(f"{package}.api.games.game_types_list")
        listed = checked("/api/v1/game-types/", "get", types.sync_detailed(client=client))
        assert [t.key.value for t in listed] == ["indulgence", "eleusis", "pax"]
        body = models.GameCreateRequest.from_dict(
            {
                "game_type": "eleusis",
                "player_count": 4,
                "rated": False,
                "seed": "generated-eleusis",
                "options": {"hand_size": 4, "sanity_walks": 20, "round_limit": 1},
                "bots": [{"seat": s, "bot": "novice"} for s in (1, 2, 3)],
            }
        )
        created = checked("/api/v1/games/", "post", create.sync_detailed(client=client, body=body))
        assert isinstance(created, models.EleusisGameViewResponse), created
        view = created
        for _ in range(1000):
            assert isinstance(view, models.EleusisGameViewResponse), view
            if view.status.value == "finished":
                break
            explicit = [a for a in view.legal_actions if "template" not in a.to_dict()]
            if view.to_act != view.my_seat or not explicit:  # the bots: look again
                view = checked(
                    game, "get", retrieve.sync_detailed(game_id=created.id, client=client)
                )
                continue
            request = models.ActionRequest.from_dict(
                {"action": rng.choice(explicit).to_dict(), "version": view.version}
            )
            view = checked(
                actions, "post", act.sync_detailed(game_id=created.id, client=client, body=request)
            )
        assert view.status.value == "finished"
        assert view.result is not None
        assert view.result.winner_seats
        record = checked(
            "/api/v1/games/{game_id}/export",
            "get",
            export.sync_detailed(game_id=created.id, client=client),
        )
        assert isinstance(record, models.EleusisExportResponse), record
        assert record.format_ == "eleusis-record-1"
        assert record.seed == "generated-eleusis"

        # And a whole game of Pax Illuminaten (issue 25): PaxGameViewResponse and
        # PaxExportResponse; every action is one of the view's legal actions (H.7), sent
        # back exactly as the generated model parsed it.
        body = models.GameCreateRequest.from_dict(
            {
                "game_type": "pax",
                "player_count": 2,
                "rated": False,
                "seed": "generated-pax",
                "options": {"round_cap": 1},
                "bots": [{"seat": 1, "bot": "random"}],
            }
        )
        created = checked("/api/v1/games/", "post", create.sync_detailed(client=client, body=body))
        assert isinstance(created, models.PaxGameViewResponse), created
        view = created
        for _ in range(2000):
            assert isinstance(view, models.PaxGameViewResponse), view
            if view.status.value == "finished":
                break
            if view.to_act != view.my_seat or not view.legal_actions:  # the bot, the steps
                view = checked(
                    game, "get", retrieve.sync_detailed(game_id=created.id, client=client)
                )
                continue
            request = models.ActionRequest.from_dict(
                {"action": rng.choice(view.legal_actions).to_dict(), "version": view.version}
            )
            view = checked(
                actions, "post", act.sync_detailed(game_id=created.id, client=client, body=request)
            )
        assert view.status.value == "finished"
        assert view.result is not None
        assert view.result.winner_seats
        record = checked(
            "/api/v1/games/{game_id}/export",
            "get",
            export.sync_detailed(game_id=created.id, client=client),
        )
        assert isinstance(record, models.PaxExportResponse), record
        assert record.format_ == "pax-record/1"
        assert record.seed.value == "generated-pax"
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("indulgence_generated")]:
            del sys.modules[name]
        shutil.rmtree(tmp_path / "indulgence_generated", ignore_errors=True)
