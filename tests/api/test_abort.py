"""Issue 21, item 5: ``POST /api/v1/games/{id}/abort``. A game nobody played can be called
off by its creator (it becomes void and leaves every list of games to join or watch); a
sandbox at any time; a game a person has moved in is played to the end."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Event, Game, GameStatus
from tests.api.conftest import Bearer
from tests.api.support import assert_error, fingerprint, game_url, three_player_game
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db

BOTS = [(1, "random"), (2, "random")]


def first_ruler_is_a_bot(owner: Any) -> Game:
    """A sandbox against two bots in which a bot is the first Ruler, so that bots have
    moved before the person's first turn (moves of bots do not make a game "played")."""
    for attempt in range(40):
        game = services.game_create(
            creator=owner, player_count=3, rated=False, seed=f"abort-{attempt}", bots=BOTS
        )
        while game.to_act_seat not in (0, None) and services.bot_turn_play(
            game_id=game.pk, expected_version=game.version
        ):
            game.refresh_from_db()
        if game.move_count:
            return game
    raise AssertionError("no seed made a bot the first Ruler")


def test_the_creator_aborts_an_open_game_and_nobody_can_join_it_any_more(
    owner: Any, opponent: Any, bearer: Bearer
) -> None:
    game = services.game_create(creator=owner, player_count=3)
    response = bearer(owner).post(game_url(game, "abort"), {}, format="json")
    assert response.status_code == 200, response.json()
    view = response.json()
    assert view["status"] == "void"
    assert view["version"] == game.version + 1
    assert view["legal_actions"] == []
    assert view["to_act"] is None
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    event = Event.objects.get(game=game, type="game_voided")
    assert event.payload == {"status": "void", "aborted": True, "status_before": "open"}
    assert_error(bearer(opponent).post(game_url(game, "join")), 409, "not_open")
    listed = bearer(opponent).get("/api/v1/games/?status=open").json()["results"]
    assert game.pk not in [g["id"] for g in listed]


def test_moves_of_bots_do_not_make_a_game_played(owner: Any, bearer: Bearer) -> None:
    game = first_ruler_is_a_bot(owner)
    game.refresh_from_db()
    version = game.version
    response = bearer(owner).post(game_url(game, "abort"), {"version": version}, format="json")
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert (game.status, game.to_act_seat, game.turn_deadline) == (GameStatus.VOID, None, None)
    # A bot turn or settlement queued before the abort finds nothing to do.
    assert services.bot_turn_play(game_id=game.pk, expected_version=game.version) is False
    assert services.hand_settle(game_id=game.pk, hand_number=1) is False
    assert_error(
        bearer(owner).post(game_url(game, "actions"), {"action": {"type": "pass"}}, format="json"),
        409,
        "game_not_active",
    )


def test_once_a_person_has_moved_the_game_is_played_to_the_end(
    owner: Any, opponent: Any, third: Any, bearer: Bearer
) -> None:
    game = three_player_game(owner, opponent, third)
    actor = [owner, opponent, third][game.to_act_seat or 0]
    view = bearer(actor).get(game_url(game)).json()
    bearer(actor).post(
        game_url(game, "actions"),
        {"action": view["legal_actions"][0], "version": view["version"]},
        format="json",
    )
    before = fingerprint(game)
    body = assert_error(
        bearer(owner).post(game_url(game, "abort"), {}, format="json"), 409, "abort_not_allowed"
    )
    assert "can no longer be aborted" in body["detail"]
    assert fingerprint(game) == before
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_a_sandbox_may_be_aborted_after_its_creator_moved(owner: Any, bearer: Bearer) -> None:
    game = services.game_create(
        creator=owner, player_count=3, rated=False, seed="abort-sandbox", bots=BOTS
    )
    while game.to_act_seat != 0:
        assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
        game.refresh_from_db()
    client = bearer(owner)
    view = client.get(game_url(game)).json()
    client.post(
        game_url(game, "actions"),
        {"action": view["legal_actions"][0], "version": view["version"]},
        format="json",
    )
    assert game.moves.filter(actor_kind="human").exists()
    assert client.post(game_url(game, "abort"), {}, format="json").json()["status"] == "void"


def test_only_the_creator_may_abort(
    owner: Any, opponent: Any, third: Any, outsider: Any, bearer: Bearer, anonymous: Any
) -> None:
    game = three_player_game(owner, opponent, third)
    before = fingerprint(game)
    for user in (opponent, outsider):
        body = assert_error(bearer(user).post(game_url(game, "abort")), 403, "forbidden")
        assert body["detail"] == "Only the player who created a game may abort it."
    assert_error(anonymous.post(game_url(game, "abort")), 401, "not_authenticated")
    reader = bearer(owner, scopes=("read",))
    assert_error(reader.post(game_url(game, "abort")), 403, "insufficient_scope")
    assert fingerprint(game) == before


def test_a_finished_or_void_game_cannot_be_aborted(owner: Any, bearer: Bearer) -> None:
    game = services.game_create(creator=owner, player_count=3)
    client = bearer(owner)
    assert client.post(game_url(game, "abort")).status_code == 200
    body = assert_error(client.post(game_url(game, "abort")), 409, "game_not_active")
    assert body["detail"] == "This game is void; only an open or running game can be aborted."


def test_a_stale_version_is_refused(owner: Any, bearer: Bearer) -> None:
    game = services.game_create(creator=owner, player_count=3)
    client = bearer(owner)
    stale = {"version": game.version - 1}
    assert_error(
        client.post(game_url(game, "abort"), stale, format="json"), 409, "version_conflict"
    )
    assert_error(
        client.post(game_url(game, "abort"), {"version": "x"}, format="json"),
        400,
        "invalid_request",
    )
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_japanese_refusals_end_in_one_japanese_full_stop(
    owner: Any, opponent: Any, bearer: Bearer
) -> None:
    game = game_with_seed(creator=owner, seed="abort-ja", player_count=3)
    response = bearer(opponent).post(game_url(game, "abort"), HTTP_ACCEPT_LANGUAGE="ja")
    detail = response.json()["detail"]
    assert response.status_code == 403
    assert detail == "ゲームを中止できるのは、そのゲームを作ったプレイヤーだけです。"
    joined = bearer(owner).post(game_url(game, "join"), HTTP_ACCEPT_LANGUAGE="ja").json()
    assert joined["code"] == "already_seated"
    assert joined["detail"].endswith("。")
    assert not joined["detail"].endswith("。.")
