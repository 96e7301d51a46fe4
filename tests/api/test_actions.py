"""POST /api/v1/games/{id}/actions: one legal action applies; anything else changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import Game, Move, Seat
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error, fingerprint, game_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(owner: Any, opponent: Any, third: Any) -> list[Any]:
    return [owner, opponent, third]


@pytest.fixture
def actor(game: Game, players: list[Any], bearer: Bearer) -> Client:
    """The player to act, with a play-scoped token."""
    assert game.to_act_seat is not None
    return bearer(players[game.to_act_seat])


@pytest.fixture
def waiter(game: Game, players: list[Any], bearer: Bearer) -> Client:
    """A seated player whose turn it is not."""
    assert game.to_act_seat is not None
    return bearer(players[(game.to_act_seat + 1) % 3])


def first_legal(client: Client, game: Game) -> dict[str, Any]:
    return dict(client.get(game_url(game)).json()["legal_actions"][0])


def submit(client: Client, game: Game, body: Any, **headers: Any) -> Any:
    return client.post(game_url(game, "actions"), body, format="json", **headers)


def test_it_applies_a_legal_action_and_returns_the_new_view(actor: Client, game: Game) -> None:
    action = first_legal(actor, game)
    response = submit(actor, game, {"action": action, "version": game.version})
    assert response.status_code == 200
    view = response.json()
    assert view["version"] == game.version + 1
    assert view["my_seat"] == game.to_act_seat
    assert Move.objects.get(game=game).action == action
    assert "Idempotent-Replayed" not in response


def test_it_applies_an_action_sent_without_a_version(actor: Client, game: Game) -> None:
    response = submit(actor, game, {"action": first_legal(actor, game)})
    assert response.status_code == 200
    assert response.json()["version"] == game.version + 1


def test_it_refuses_an_illegal_action_and_says_why(actor: Client, game: Game) -> None:
    before = fingerprint(game)
    view_before = actor.get(game_url(game)).json()
    response = submit(
        actor, game, {"action": {"type": "play", "card": "B1"}, "version": game.version}
    )
    error = assert_error(response, 400, "illegal_action")
    assert error["detail"]
    assert fingerprint(game) == before
    assert actor.get(game_url(game)).json() == view_before


def test_it_refuses_an_action_of_unknown_type_as_illegal(actor: Client, game: Game) -> None:
    response = submit(actor, game, {"action": {"type": "checkmate"}})
    assert "checkmate" in assert_error(response, 400, "illegal_action")["detail"]


@pytest.mark.parametrize(
    "body",
    [{}, {"action": "play M7"}, {"action": {"type": "pass"}, "version": -1}, ["action"]],
    ids=["no action", "action not an object", "negative version", "body not an object"],
)
def test_it_refuses_a_malformed_request(actor: Client, game: Game, body: Any) -> None:
    before = fingerprint(game)
    assert_error(submit(actor, game, body), 400, "invalid_request")
    assert fingerprint(game) == before


def test_it_refuses_an_outsider(outsider: Any, bearer: Bearer, game: Game) -> None:
    before = fingerprint(game)
    response = submit(bearer(outsider), game, {"action": {"type": "pass"}})
    assert_error(response, 403, "not_seated")
    assert fingerprint(game) == before


def test_it_refuses_a_seated_player_out_of_turn(waiter: Client, actor: Client, game: Game) -> None:
    before = fingerprint(game)
    response = submit(waiter, game, {"action": first_legal(actor, game), "version": game.version})
    assert_error(response, 409, "not_your_turn")
    assert fingerprint(game) == before


def test_it_refuses_a_stale_version_and_changes_nothing(actor: Client, game: Game) -> None:
    before = fingerprint(game)
    view_before = actor.get(game_url(game)).json()
    response = submit(
        actor, game, {"action": first_legal(actor, game), "version": game.version - 1}
    )
    error = assert_error(response, 409, "version_conflict")
    assert str(game.version) in error["detail"]
    assert fingerprint(game) == before
    assert actor.get(game_url(game)).json() == view_before


def test_it_refuses_moves_before_the_game_starts(owner: Any, bearer: Bearer) -> None:
    game = services.game_create(creator=owner, player_count=3)
    response = submit(bearer(owner), game, {"action": {"type": "pass"}})
    assert_error(response, 409, "game_not_active")


def test_it_answers_not_found_for_an_unknown_game(owner: Any, bearer: Bearer) -> None:
    response = bearer(owner).post(game_url(404404, "actions"), {"action": {}}, format="json")
    assert_error(response, 404, "not_found")


def test_it_needs_the_play_scope(game: Game, players: list[Any], bearer: Bearer) -> None:
    assert game.to_act_seat is not None
    reader = bearer(players[game.to_act_seat], scopes=("read",))
    response = submit(reader, game, {"action": first_legal(reader, game)})
    assert "'play'" in assert_error(response, 403, "insufficient_scope")["detail"]


def test_it_needs_an_account(anonymous: Client, game: Game) -> None:
    response = submit(anonymous, game, {"action": {"type": "pass"}})
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


class TestIdempotencyKey:
    def test_it_returns_the_first_result_to_a_repeated_request(
        self, actor: Client, game: Game
    ) -> None:
        body = {"action": first_legal(actor, game), "version": game.version}
        first = submit(actor, game, body, HTTP_IDEMPOTENCY_KEY="move-1")
        again = submit(actor, game, body, HTTP_IDEMPOTENCY_KEY="move-1")
        assert (again.status_code, again.json()) == (first.status_code, first.json())
        assert first.status_code == 200
        assert again["Idempotent-Replayed"] == "true"
        assert Move.objects.filter(game=game).count() == 1

    def test_it_refuses_the_same_key_for_another_request(self, actor: Client, game: Game) -> None:
        legal = actor.get(game_url(game)).json()["legal_actions"]
        submit(actor, game, {"action": legal[0]}, HTTP_IDEMPOTENCY_KEY="move-1")
        before = fingerprint(game)
        response = submit(actor, game, {"action": legal[1]}, HTTP_IDEMPOTENCY_KEY="move-1")
        assert_error(response, 422, "idempotency_key_reused")
        assert fingerprint(game) == before

    def test_it_records_only_an_applied_action_under_its_key(
        self, actor: Client, waiter: Client, game: Game
    ) -> None:
        action = first_legal(actor, game)
        refused = submit(waiter, game, {"action": action}, HTTP_IDEMPOTENCY_KEY="early")
        assert_error(refused, 409, "not_your_turn")
        again = submit(waiter, game, {"action": action}, HTTP_IDEMPOTENCY_KEY="early")
        assert_error(again, 409, "not_your_turn")  # asked again, not replayed
        assert "Idempotent-Replayed" not in again
        assert not Move.objects.filter(game=game).exists()
        stale = {"action": action, "version": game.version}
        assert submit(actor, game, stale, HTTP_IDEMPOTENCY_KEY="mine").status_code == 200
        assert_error(
            submit(actor, game, stale, HTTP_IDEMPOTENCY_KEY="late"), 409, "version_conflict"
        )
        [move] = Move.objects.filter(game=game)
        assert move.idempotency_key == "mine"

    @pytest.mark.parametrize("key", ["k" * 129, "two words", ""], ids=["long", "space", "empty"])
    def test_it_refuses_a_key_that_is_not_1_to_128_printable_characters(
        self, actor: Client, game: Game, key: str
    ) -> None:
        response = submit(
            actor, game, {"action": first_legal(actor, game)}, HTTP_IDEMPOTENCY_KEY=key
        )
        assert "Idempotency-Key" in assert_error(response, 400, "invalid_request")["errors"]
        assert not Move.objects.filter(game=game).exists()

    def test_it_accepts_a_key_of_128_characters(self, actor: Client, game: Game) -> None:
        response = submit(
            actor, game, {"action": first_legal(actor, game)}, HTTP_IDEMPOTENCY_KEY="k" * 128
        )
        assert response.status_code == 200


def test_it_throttles_actions_per_account(
    actor: Client, game: Game, settings: SettingsWrapper
) -> None:
    rates = {"anon": None, "user": None, "actions": "1/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert submit(actor, game, {"action": first_legal(actor, game)}).status_code == 200
    response = submit(actor, game, {"action": {"type": "pass"}})
    assert_error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert actor.get(game_url(game)).status_code == 200  # reads are not actions


def test_it_refuses_a_player_whose_seat_a_bot_took_over(actor: Client, game: Game) -> None:
    # After repeated timeouts the seat is handed to a bot for the rest of the game.
    assert game.to_act_seat is not None
    Seat.objects.filter(game=game, number=game.to_act_seat).update(bot_kind="random")
    before = fingerprint(game)
    response = submit(actor, game, {"action": {"type": "pass"}})
    assert "random bot" in assert_error(response, 403, "forbidden")["detail"]
    assert fingerprint(game) == before
