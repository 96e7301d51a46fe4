"""The client package against a live server: a whole sandbox game, errors, streams."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from indulgence_client import (
    Client,
    Conflict,
    GameNotFinished,
    IllegalAction,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
    NotSeated,
    TransportError,
    VersionConflict,
    play_game,
)
from indulgence_client.bot import describe_result, explicit

from engine import eleusis

# One TCP connection per request: the test server's separate header and body writes meet
# delayed ACKs on kept-alive connections (tests/api/test_live_game.py).
CLOSE = {"Connection": "close"}

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_client_plays_a_whole_new_eleusis_game(
    server: str, bot_token: Callable[[str], str]
) -> None:
    """The same client and bot loop play New Eleusis (issue 24): the game types, a sandbox
    of the game with its options, explicit legal actions, the common result, the record
    (NE-29.3) that the engine's verify accepts."""
    rng = random.Random(5)
    with Client(server, headers=CLOSE, token=bot_token("kiteleusis")) as client:
        assert [t["key"] for t in client.game_types()] == ["indulgence", "eleusis", "pax"]
        view = client.create_sandbox(
            seed="kit-eleusis",
            player_count=4,
            game_type="eleusis",
            bot="novice",
            options={"hand_size": 4, "sanity_walks": 20, "round_limit": 1},
        )
        assert view["game_type"] == "eleusis"
        final = play_game(
            client,
            view["id"],
            lambda v: rng.choice(explicit(v)),
            use_stream=False,
        )
        assert final["status"] == "finished"
        assert final["result"]["winner_seats"]
        assert "points" in describe_result(final)
        record = client.export(view["id"])
        assert eleusis.verify(record).ok
        mine = client.list_games(game_type="eleusis", mine=True)["results"]
        assert [g["id"] for g in mine] == [view["id"]]
        board = client.leaderboard(game_type="eleusis", player_count=4)
        assert board["variant"] == "standard"


def test_the_client_plays_a_whole_sandbox_game_while_a_stream_follows_it(
    server: str, bot_token: Callable[[str], str]
) -> None:
    """The client plays a whole game; meanwhile a game stream, which the server ends every
    STREAM_MAX_SECONDS (4 s here), resumes with Last-Event-ID and loses no event."""
    rng = random.Random(3)
    with Client(server, headers=CLOSE, token=bot_token("kitbot")) as client:
        assert client.me()["username"] == "kitbot"
        view = client.create_sandbox(seed="kit-1", player_count=3, bot="random")
        game_id = view["id"]
        assert view["status"] == "in_progress"
        assert view["my_seat"] == 0
        assert not view["rated"]
        stream = client.game_stream(game_id, last_event_id=0, read_timeout=10)
        seen: list[dict[str, Any]] = []

        def follow() -> None:
            for event in stream:
                seen.append(event)
                if event["type"] == "game_finished":
                    return

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()

        final = play_game(
            client,
            game_id,
            lambda v: dict(rng.choice(v["legal_actions"])),
            use_stream=False,
            poll_interval=0.05,
        )

        follower.join(timeout=30)
        stream.close()
        assert not follower.is_alive()
        assert final["status"] == "finished"
        assert final["result"]["winner_seat"] in (0, 1, 2)
        record = client.export(game_id)
        assert record["seed"] == "kit-1"
        log = client.moves(game_id)["moves"]
        assert any(m["seat"] == 0 and m["actor"] == "human" for m in log)
        assert [g["id"] for g in client.iter_games(mine=True, status="finished")] == [game_id]
        assert client.leaderboard(player_count=3)["entries"] == []  # unrated: no rating
        # The stream: every step once, in order, across the server's reconnections.
        assert stream.connections >= 2
        assert seen[0]["type"] == "game_started"
        steps = [e for e in seen if e["type"] in ("move", "hand_settled")]
        assert [e["seq"] for e in steps] == [m["seq"] for m in log]


def test_the_same_seed_deals_the_same_cards(server: str, bot_token: Callable[[str], str]) -> None:
    with Client(server, headers=CLOSE, token=bot_token("kitbot")) as client:
        first = client.create_sandbox(seed="same", player_count=4)
        second = client.create_sandbox(seed="same", player_count=4)
        assert first["my_hand"] == second["my_hand"]
        assert first["seed_commitment"] == second["seed_commitment"]


def test_refusals_are_exceptions_with_the_servers_code(
    server: str, bot_token: Callable[[str], str]
) -> None:
    with Client(server, headers=CLOSE, token=bot_token("kitbot")) as client:
        game_id = client.create_sandbox(seed="kit-errors", player_count=3)["id"]
        view = client.game(game_id)
        assert view["legal_actions"]
        with pytest.raises(IllegalAction) as illegal:
            client.act(game_id, {"type": "play", "card": "X9"}, version=view["version"])
        assert illegal.value.status == 400
        assert illegal.value.code == "illegal_action"
        assert illegal.value.detail
        with pytest.raises(VersionConflict):
            client.act(game_id, view["legal_actions"][0], version=view["version"] + 5)
        with pytest.raises(GameNotFinished):
            client.export(game_id)
        # Indulgence keeps no undo (Pax Illuminaten's 15.5.2 only): a plain 409 Conflict.
        with pytest.raises(Conflict) as no_undo:
            client.undo(game_id, version=view["version"])
        assert no_undo.value.code == "undo_not_available"
    with Client(server, headers=CLOSE, token=bot_token("stranger")) as stranger:
        with pytest.raises(NotSeated) as not_seated:
            stranger.act(game_id, view["legal_actions"][0])
        assert not_seated.value.code == "not_seated"
        assert stranger.game(game_id)["my_seat"] is None  # the spectator's view
    with (
        Client(server, headers=CLOSE, token="ind_not-a-token") as nobody,
        pytest.raises(NotAuthenticated),
    ):
        nobody.me()


def test_actions_are_retried_with_the_same_idempotency_key_after_a_network_failure(
    server: str, bot_token: Callable[[str], str]
) -> None:
    real = Client(server, headers=CLOSE, token=bot_token("kitbot"))
    view = real.game(real.create_sandbox(seed="kit-idem", player_count=3)["id"])
    assert view["legal_actions"]  # the built-in bots answered within the request
    keys: list[str] = []
    upstream = httpx.HTTPTransport()

    def flaky(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            keys.append(request.headers["Idempotency-Key"])
            response = upstream.handle_request(request)
            response.read()
            if len(keys) == 1:  # the action arrived, the answer was lost
                raise httpx.ReadError("connection reset", request=request)
            return response
        return upstream.handle_request(request)

    client = Client(
        server,
        headers=CLOSE,
        token=real.http.headers["Authorization"].split()[1],
        transport=httpx.MockTransport(flaky),
        sleep=lambda s: None,
    )
    after = client.act(view["id"], view["legal_actions"][0], version=view["version"])
    assert len(keys) == 2
    assert keys[0] == keys[1]
    assert after["version"] > view["version"]
    moves = [m for m in real.moves(view["id"])["moves"] if m["seat"] == 0]
    assert len(moves) == 1  # applied once

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    dead = Client(
        server, headers=CLOSE, token="t", transport=httpx.MockTransport(down), sleep=lambda s: None
    )
    with pytest.raises(TransportError):
        dead.game(view["id"])
    real.close()


def test_the_client_manages_notifications_webhooks_and_disputes(
    server: str, bot_token: Callable[[str], str]
) -> None:
    """Everything else a bot account does through the client: its notifications (list,
    mark read, preferences), webhooks (register, inspect, deliveries, delete) and disputes
    (open, list, follow); refusals come back as the client's exceptions."""
    with Client(server, headers=CLOSE, token=bot_token("kitnotes")) as client:
        view = client.create_sandbox(seed="kit-notes", player_count=3, bot="random")
        game_id = view["id"]
        # Against bots, seat 0's first turn comes at once or after the bots have moved.
        for _ in range(100):
            if client.game(game_id)["legal_actions"]:
                break
            time.sleep(0.05)
        page = client.notifications(unread=True)
        kinds = {n["kind"] for n in page["results"]}
        assert "your_turn" in kinds, page
        assert page["count"] == len(page["results"]) >= 1
        first = page["results"][0]["id"]
        assert client.mark_read(first)["marked_read"] == 1
        assert client.mark_read(first)["marked_read"] == 0  # twice is harmless
        left = client.mark_read()
        assert left["unread"] == 0
        assert client.notifications(unread=True)["count"] == 0
        assert client.notifications()["count"] == page["count"]

        assert client.preferences()["email_your_turn"] is True
        quiet = {"start": "22:00", "end": "07:00", "timezone": "Asia/Tokyo"}
        changed = client.update_preferences(email_your_turn=False, quiet_hours=quiet)
        assert changed["email_your_turn"] is False
        assert changed["quiet_hours"] == quiet
        assert client.preferences() == changed
        assert client.update_preferences(quiet_hours=None)["quiet_hours"] is None
        with pytest.raises(InvalidRequest):
            client.update_preferences(quiet_hours={"start": "25:00", "end": "07:00"})

        hook = client.create_webhook("http://127.0.0.1:9/hook", kinds=["your_turn"])
        assert hook["secret"]
        assert hook["kinds"] == ["your_turn"]
        assert [h["id"] for h in client.webhooks()] == [hook["id"]]
        assert "secret" not in client.webhook(hook["id"])
        assert client.webhook_deliveries(hook["id"])["results"] == []
        client.delete_webhook(hook["id"])
        assert client.webhooks() == []
        with pytest.raises(NotFound):
            client.webhook(hook["id"])

        opened = client.dispute(game_id, "The second trick looked wrong to my bot.")
        assert opened["status"] == "open"
        assert [d["id"] for d in client.disputes()] == [opened["id"]]
        followed = client.get_dispute(opened["id"])
        assert (followed["game"], followed["status"], followed["opened_by"]) == (
            game_id,
            "open",
            "kitnotes",
        )
        with pytest.raises(NotFound):
            client.get_dispute(opened["id"] + 1000)
