"""Games: create, list, read, join, moves, export, disputes; and the leaderboard."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors, services
from games.models import Dispute, Game, GameStatus, Seat
from tests.api.conftest import Bearer
from tests.api.support import (
    QUICK_SEED,
    Client,
    assert_error,
    finished_game,
    game_url,
)

pytestmark = pytest.mark.django_db


class TestCreate:
    def test_it_creates_a_game_and_returns_the_creators_view(
        self, owner: Any, bearer: Bearer
    ) -> None:
        response = bearer(owner).post("/api/v1/games/", {"player_count": 4}, format="json")
        assert response.status_code == 201
        view = response.json()
        assert response["Location"] == f"/api/v1/games/{view['id']}/"
        assert view["status"] == "open"
        assert view["my_seat"] == 0
        assert view["open_seats"] == 3
        assert view["rated"] is True
        assert view["seats"][0]["username"] == "owner"
        assert len(view["seed_commitment"]) == 64

    def test_it_starts_a_game_whose_other_seats_are_bots(self, owner: Any, bearer: Bearer) -> None:
        body = {
            "player_count": 3,
            "bots": [{"seat": 1, "bot": "random"}, {"seat": 2, "bot": "random"}],
        }
        view = bearer(owner).post("/api/v1/games/", body, format="json").json()
        assert view["status"] == "in_progress"
        assert [seat["is_bot"] for seat in view["seats"]] == [False, True, True]
        assert len(view["my_hand"]) == 12

    def test_it_reports_every_invalid_field_in_one_sentence(
        self, owner: Any, bearer: Bearer
    ) -> None:
        body = {"player_count": 5, "variant": "chess", "bots": [{"seat": "x", "bot": "random"}]}
        response = bearer(owner).post("/api/v1/games/", body, format="json")
        error = assert_error(response, 400, "invalid_request")
        assert set(error["errors"]) == {"player_count", "variant", "bots"}
        assert 'player_count: "5" is not a valid choice.' in error["detail"]
        assert "bots[0].seat: A valid integer is required." in error["detail"]

    def test_it_refuses_an_unknown_bot(self, owner: Any, bearer: Bearer) -> None:
        body = {"player_count": 3, "bots": [{"seat": 1, "bot": "genius"}]}
        response = bearer(owner).post("/api/v1/games/", body, format="json")
        assert "genius" in assert_error(response, 400, "unknown_bot")["detail"]

    def test_it_refuses_a_chosen_seed_for_a_rated_game(self, owner: Any, bearer: Bearer) -> None:
        body = {"player_count": 3, "seed": "mine"}
        response = bearer(owner).post("/api/v1/games/", body, format="json")
        assert "unrated" in assert_error(response, 400, "invalid_request")["detail"]

    def test_it_refuses_a_turn_timeout_below_a_minute(self, owner: Any, bearer: Bearer) -> None:
        body = {"player_count": 3, "turn_timeout_seconds": 5}
        response = bearer(owner).post("/api/v1/games/", body, format="json")
        assert_error(response, 400, "invalid_request")
        assert not Game.objects.exists()

    def test_it_needs_an_account(self, anonymous: Client) -> None:
        response = anonymous.post("/api/v1/games/", {"player_count": 3}, format="json")
        assert_error(response, 401, "not_authenticated")


class TestList:
    def test_it_lists_summaries_newest_first_page_by_page(
        self, owner: Any, anonymous: Client
    ) -> None:
        games = [services.game_create(creator=owner, player_count=3) for _ in range(3)]
        page = anonymous.get("/api/v1/games/?limit=2").json()
        assert page["count"] == 3
        assert [item["id"] for item in page["results"]] == [games[2].pk, games[1].pk]
        assert "offset=2" in page["next"]
        assert page["previous"] is None
        rest = anonymous.get(page["next"]).json()
        assert [item["id"] for item in rest["results"]] == [games[0].pk]
        assert rest["results"][0]["seats"] == [{"seat": 0, "username": "owner", "is_bot": False}]

    def test_it_pages_fifty_by_default_and_at_most_two_hundred(
        self, owner: Any, anonymous: Client
    ) -> None:
        Game.objects.bulk_create(
            Game(player_count=3, created_by=owner, seed="s", seed_commitment="c")
            for _ in range(201)
        )
        assert len(anonymous.get("/api/v1/games/").json()["results"]) == 50
        page = anonymous.get("/api/v1/games/?limit=1000").json()
        assert len(page["results"]) == 200
        assert "limit=200" in page["next"]

    def test_it_filters_by_status(self, game: Game, owner: Any, anonymous: Client) -> None:
        open_game = services.game_create(creator=owner, player_count=4)
        in_progress = anonymous.get("/api/v1/games/?status=in_progress").json()["results"]
        assert [item["id"] for item in in_progress] == [game.pk]
        open_ = anonymous.get("/api/v1/games/?status=open").json()["results"]
        assert [item["id"] for item in open_] == [open_game.pk]

    def test_it_lists_only_my_games_with_mine(
        self, game: Game, outsider: Any, bearer: Bearer, opponent: Any
    ) -> None:
        services.game_create(creator=outsider, player_count=4)
        mine = bearer(opponent).get("/api/v1/games/?mine=true").json()["results"]
        assert [(item["id"], item["my_seat"]) for item in mine] == [(game.pk, 1)]

    def test_it_needs_an_account_to_list_my_games(self, anonymous: Client) -> None:
        assert_error(anonymous.get("/api/v1/games/?mine=true"), 401, "not_authenticated")

    def test_it_refuses_an_unknown_status(self, anonymous: Client) -> None:
        response = anonymous.get("/api/v1/games/?status=paused")
        assert "status" in assert_error(response, 400, "invalid_request")["errors"]


class TestRead:
    def test_it_shows_a_seated_player_their_hand_and_actions(
        self, game: Game, bearer: Bearer, owner: Any, opponent: Any, third: Any
    ) -> None:
        users = [owner, opponent, third]
        actor = users[game.to_act_seat or 0]
        view = bearer(actor).get(game_url(game)).json()
        assert view["my_seat"] == game.to_act_seat
        assert len(view["my_hand"]) == 12
        assert view["legal_actions"]
        assert view["version"] == game.version

    def test_it_shows_an_anonymous_caller_the_spectators_view(
        self, game: Game, anonymous: Client
    ) -> None:
        view = anonymous.get(game_url(game)).json()
        assert view["my_seat"] is None
        assert view["my_hand"] == []
        assert view["legal_actions"] == []
        assert view["status"] == "in_progress"

    def test_it_answers_not_found_for_an_unknown_game(self, anonymous: Client) -> None:
        response = anonymous.get(game_url(999999))
        assert assert_error(response, 404, "not_found")["detail"] == "There is no game 999999."


class TestJoin:
    def test_it_seats_a_joiner_in_the_first_free_seat(
        self, owner: Any, opponent: Any, bearer: Bearer
    ) -> None:
        game = services.game_create(creator=owner, player_count=3)
        response = bearer(opponent).post(game_url(game, "join"))
        assert response.status_code == 200
        assert response.json()["my_seat"] == 1
        assert response.json()["open_seats"] == 1

    def test_it_starts_the_game_when_the_last_seat_is_taken(
        self, owner: Any, opponent: Any, third: Any, bearer: Bearer
    ) -> None:
        game = services.game_create(creator=owner, player_count=3)
        services.game_join(game_id=game.pk, user=opponent)
        view = bearer(third).post(game_url(game, "join")).json()
        assert view["status"] == "in_progress"
        assert len(view["my_hand"]) == 12

    def test_it_refuses_a_full_game(self, game: Game, outsider: Any, bearer: Bearer) -> None:
        assert_error(bearer(outsider).post(game_url(game, "join")), 409, "game_full")

    def test_it_refuses_a_second_seat(self, owner: Any, bearer: Bearer) -> None:
        game = services.game_create(creator=owner, player_count=3)
        assert_error(bearer(owner).post(game_url(game, "join")), 409, "already_seated")

    def test_it_refuses_a_game_that_is_no_longer_open(
        self, owner: Any, outsider: Any, bearer: Bearer
    ) -> None:
        game = services.game_create(creator=owner, player_count=3)
        Game.objects.filter(pk=game.pk).update(status=GameStatus.VOID)  # e.g. voided by staff
        assert_error(bearer(outsider).post(game_url(game, "join")), 409, "not_open")
        assert Seat.objects.filter(game=game).count() == 1

    def test_it_answers_not_found_for_an_unknown_game(self, outsider: Any, bearer: Bearer) -> None:
        assert_error(bearer(outsider).post(game_url(424242, "join")), 404, "not_found")


class TestMoves:
    def test_it_lists_the_moves_so_far(
        self, game: Game, owner: Any, opponent: Any, third: Any, bearer: Bearer, anonymous: Client
    ) -> None:
        assert anonymous.get(game_url(game, "moves")).json() == {
            "id": game.pk,
            "version": game.version,
            "moves": [],
        }
        actor = [owner, opponent, third][game.to_act_seat or 0]
        view = bearer(actor).get(game_url(game)).json()
        action = view["legal_actions"][0]
        bearer(actor).post(game_url(game, "actions"), {"action": action}, format="json")
        log = anonymous.get(game_url(game, "moves")).json()
        assert log["version"] == view["version"] + 1
        [move] = log["moves"]
        assert move["seq"] == 1
        assert move["seat"] == game.to_act_seat
        assert move["action"] == action
        assert move["actor"] == "human"

    def test_it_answers_not_found_for_an_unknown_game(self, anonymous: Client) -> None:
        assert_error(anonymous.get(game_url(31337, "moves")), 404, "not_found")


class TestExport:
    def test_it_keeps_the_record_secret_until_the_game_ends(
        self, game: Game, owner: Any, bearer: Bearer
    ) -> None:
        response = bearer(owner).get(game_url(game, "export"))
        assert_error(response, 409, "game_not_finished")
        assert game.seed not in response.content.decode()

    def test_it_shows_staff_reviewing_a_dispute_the_record_of_a_game_in_progress(
        self, game: Game, staff: Any, opponent: Any, session: Any
    ) -> None:
        services.dispute_create(game_id=game.pk, user=opponent, reason="A card went missing.")
        record = session(staff).get(game_url(game, "export")).json()
        assert record["seed"] == "api-test"
        assert set(record["hands"][0]["deal"]) == {"0", "1", "2"}

    def test_it_publishes_a_finished_games_full_record_to_anyone(
        self, owner: Any, opponent: Any, third: Any, anonymous: Client
    ) -> None:
        game = finished_game(owner, opponent, third)
        record = anonymous.get(game_url(game, "export")).json()
        assert record["id"] == game.pk
        assert record["seed"] == QUICK_SEED
        assert [seat["username"] for seat in record["seats"]] == ["owner", "opponent", "third"]
        assert record["result"]["reason"] in {"rounds_complete", "bankruptcy", "papal_bull_sin"}
        assert selectors.record_verify(record) == []

    def test_it_answers_not_found_for_an_unknown_game(self, anonymous: Client) -> None:
        assert_error(anonymous.get(game_url(31337, "export")), 404, "not_found")


class TestDisputes:
    def test_it_opens_a_dispute_for_a_seated_player(
        self, game: Game, opponent: Any, bearer: Bearer
    ) -> None:
        response = bearer(opponent).post(
            game_url(game, "disputes"), {"reason": "  The Ruler took too long.  "}, format="json"
        )
        assert response.status_code == 201
        body = response.json()
        assert set(body) == {"id", "status", "reason", "created_at"}
        assert body["status"] == "open"
        assert body["reason"] == "The Ruler took too long."
        assert Dispute.objects.get(pk=body["id"]).opened_by == opponent

    def test_it_needs_a_reason(self, game: Game, opponent: Any, bearer: Bearer) -> None:
        response = bearer(opponent).post(game_url(game, "disputes"), {"reason": " "}, format="json")
        assert "reason" in assert_error(response, 400, "invalid_request")["errors"]

    def test_it_refuses_an_outsider(self, game: Game, outsider: Any, bearer: Bearer) -> None:
        response = bearer(outsider).post(game_url(game, "disputes"), {"reason": "x"}, format="json")
        assert_error(response, 403, "not_seated")

    def test_it_refuses_a_game_that_has_not_started(self, owner: Any, bearer: Bearer) -> None:
        game = services.game_create(creator=owner, player_count=3)
        response = bearer(owner).post(game_url(game, "disputes"), {"reason": "x"}, format="json")
        assert_error(response, 409, "dispute_not_allowed")


class TestLeaderboard:
    def test_it_ranks_the_players_of_rated_games(
        self, owner: Any, opponent: Any, third: Any, anonymous: Client
    ) -> None:
        game = finished_game(owner, opponent, third, rated=True)
        board = anonymous.get("/api/v1/leaderboard?variant=expert&player_count=3").json()
        assert board["variant"] == "expert"
        assert board["player_count"] == 3
        assert [entry["rank"] for entry in board["entries"]] == [1, 2, 3]
        assert game.result is not None
        winner = game.seats.get(number=game.result["winner_seat"]).player.user.username
        assert board["entries"][0]["username"] == winner
        assert anonymous.get("/api/v1/leaderboard?player_count=3").json()["entries"] == []

    def test_it_refuses_an_unknown_pool(self, anonymous: Client) -> None:
        response = anonymous.get("/api/v1/leaderboard?variant=basic&player_count=5")
        assert "player_count" in assert_error(response, 400, "invalid_request")["errors"]


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "pass"}},
        {"action": {"type": "play", "card": "M7"}, "version": 12},
        {"action": {"type": "pass"}, "version": None},
        {"action": {"type": "pass"}, "version": 0, "extra": "ignored"},
        {"action": {}, "version": 3},
        {"action": {"type": "pass"}, "version": -1},
        {"action": {"type": "pass"}, "version": "7"},
        {"action": {"type": "pass"}, "version": True},
        {"action": {"type": "pass"}, "version": 2.0},
        {"action": ["pass"]},
        {"action": None},
        {"version": 3},
        ["not", "an", "object"],
        {"action": {1: "int key"}},
    ],
)
def test_the_action_body_reads_as_its_serializer_reads_it(body: Any) -> None:
    """The move's fast path past the serializer takes only what the serializer takes the
    same way; everything else is the serializer's (with its errors)."""
    from rest_framework.exceptions import ValidationError

    from games.api import serializers, views

    def serializer_reads() -> Any:
        try:
            return views._valid(serializers.ActionRequest, body)
        except ValidationError as exc:
            return ("refused", exc.detail)

    def fast_path_reads() -> Any:
        try:
            return views._action_body(body)
        except ValidationError as exc:
            return ("refused", exc.detail)

    assert fast_path_reads() == serializer_reads()
