"""The REST contract (../shared/design/api.md) field by field, as a client reads it.

tests/api/test_schema.py checks that the OpenAPI schema describes the responses; a field
missing from both would pass there. Here the field lists are copied from api.md itself.
"""

from __future__ import annotations

import copy
import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import disputes, services
from games.models import Game, GameStatus, Move
from tests.api.conftest import Bearer
from tests.api.support import (
    Client,
    assert_error,
    finished_game,
    game_url,
    record_rules_problems,
    three_player_game,
)

pytestmark = pytest.mark.django_db

# api.md "The view", in its order.
VIEW_FIELDS = {
    "id",
    "status",
    "variant",
    "player_count",
    "version",
    "my_seat",
    "seats",
    "round",
    "hand_number",
    "ruler_seat",
    "phase",
    "to_act",
    "edict_row",
    "edicts_in_play",
    "sinner_seat",
    "trump",
    "indulgence_used",
    "my_hand",
    "current_trick",
    "tricks",
    "legal_actions",
    "last_settlement",
    "seed_commitment",
    "result",
}
SEAT_FIELDS = {"seat", "username", "is_bot", "florins", "papal_bull_available"}
PHASES = {
    "choosing_edict",
    "naming_trump",
    "sin_decision",
    "playing",
    "resolving_ties",
    "settling",
    "finished",
}
FAMILIES = {"borgia", "medici", "orsini", "sforza"}
EDICT_FIELDS = {"id", "kind", "title", "families"}
# api.md "The full record (export)".
RECORD_FIELDS = {
    "id",
    "variant",
    "player_count",
    "seed",
    "seed_commitment",
    "seats",
    "first_ruler",
    "hands",
    "result",
    "moves",
}
HAND_FIELDS = {
    "number",
    "round",
    "ruler",
    "deal",
    "edict_row",
    "edicts_in_force",
    "papal_bull",
    "trump",
    "sin_decisions",
    "sinner",
    "tricks",
    "ended_early",
    "tie_choices",
    "payments",
    "florins_after",
}
ACTION_SHAPES = {
    "choose_edict": {"type", "edict"},
    "papal_bull": {"type"},
    "name_trump": {"type", "family"},
    "sin": {"type"},
    "pass": {"type"},
    "play": {"type", "card", "indulgence"},
    "resolve_tie": {"type", "family", "seat"},
}


def _check_view(view: dict[str, Any], *, seat: int | None, player_count: int) -> None:
    assert set(view) >= VIEW_FIELDS, VIEW_FIELDS - set(view)
    assert view["status"] in {"open", "in_progress", "finished", "void"}
    assert view["variant"] in {"basic", "expert"}
    assert view["player_count"] == player_count
    assert isinstance(view["version"], int)
    assert view["my_seat"] == seat
    assert [s["seat"] for s in view["seats"]] == list(range(player_count))
    for entry in view["seats"]:
        assert set(entry) >= SEAT_FIELDS, SEAT_FIELDS - set(entry)
        assert isinstance(entry["username"], str)
        assert isinstance(entry["is_bot"], bool)
    assert 1 <= view["round"] <= 3
    assert view["hand_number"] >= 1
    assert 0 <= view["ruler_seat"] < player_count
    assert view["phase"] in PHASES
    assert view["to_act"] is None or 0 <= view["to_act"] < player_count
    for edict in view["edict_row"] + view["edicts_in_play"]:
        assert set(edict) >= EDICT_FIELDS
        assert set(edict["families"]) <= FAMILIES
    assert view["trump"] is None or view["trump"] in FAMILIES
    assert isinstance(view["indulgence_used"], bool)
    assert all(isinstance(card, str) and len(card) == 2 for card in view["my_hand"])
    trick = view["current_trick"]
    assert set(trick) >= {"leader", "led_family", "plays"}
    for play in trick["plays"]:
        assert set(play) >= {"seat", "card", "indulgence"}
    for done in view["tricks"]:
        assert set(done) >= {"winner", "plays"}
    if view["my_seat"] is None or view["to_act"] != view["my_seat"]:
        assert view["legal_actions"] == []
    for action in view["legal_actions"]:
        assert set(action) == ACTION_SHAPES[action["type"]], action
    assert len(view["seed_commitment"]) == 64
    int(view["seed_commitment"], 16)


def test_a_seated_players_view_has_every_field_of_the_contract(
    owner: Any, opponent: Any, third: Any, bearer: Bearer, anonymous: Client
) -> None:
    game = three_player_game(owner, opponent, third)
    for seat, user in enumerate([owner, opponent, third]):
        view = bearer(user).get(game_url(game)).json()
        _check_view(view, seat=seat, player_count=3)
        assert len(view["my_hand"]) == 12
        assert (view["legal_actions"] != []) is (view["to_act"] == seat)
        assert view["last_settlement"] is None
        assert view["result"] is None
    _check_view(anonymous.get(game_url(game)).json(), seat=None, player_count=3)


def test_a_finished_games_view_and_record_have_every_field_of_the_contract(
    owner: Any, opponent: Any, third: Any, bearer: Bearer, anonymous: Client
) -> None:
    game = finished_game(owner, opponent, third)
    view = bearer(opponent).get(game_url(game)).json()
    _check_view(view, seat=1, player_count=3)
    assert view["status"] == "finished"
    assert view["phase"] == "finished"
    assert view["legal_actions"] == []
    assert set(view["result"]) >= {"winner_seat", "florins", "reason"}
    assert set(view["last_settlement"]) >= {"payments", "florins_after"}

    record = anonymous.get(game_url(game, "export")).json()
    assert set(record) >= RECORD_FIELDS, RECORD_FIELDS - set(record)
    assert record["seats"] == [
        {"seat": n, "username": name, "is_bot": False}
        for n, name in enumerate(["owner", "opponent", "third"])
    ]
    for hand in record["hands"]:
        assert set(hand) >= HAND_FIELDS, HAND_FIELDS - set(hand)
        assert set(hand["deal"]) == {"0", "1", "2"}
        assert set(hand["florins_after"]) == {"0", "1", "2"}
        for payment in hand["payments"]:
            assert set(payment) >= {"payer", "payee", "owed", "paid", "reason"}
        for trick in hand["tricks"]:
            assert set(trick) >= {"leader", "plays", "winner"}
    assert set(record["result"]) == {"winner_seat", "florins", "reason"}
    # The view's result also has the common keys of every game (api.md "Many games").
    assert view["result"].items() >= record["result"].items()
    assert set(view["result"]) - set(record["result"]) == {"ranking", "scores", "winner_seats"}
    assert len(record["moves"]) == Move.objects.filter(game=game).count()
    for move in record["moves"]:
        assert set(move) >= {"seq", "seat", "action", "at"}


class TestGameNotActive:
    def test_a_finished_game_takes_no_more_actions(
        self, owner: Any, opponent: Any, third: Any, bearer: Bearer
    ) -> None:
        game = finished_game(owner, opponent, third)
        version = Game.objects.get(pk=game.pk).version
        response = bearer(owner).post(
            game_url(game, "actions"), {"action": {"type": "pass"}}, format="json"
        )
        assert_error(response, 409, "game_not_active")
        assert Game.objects.get(pk=game.pk).version == version

    def test_a_void_game_takes_no_more_actions(
        self, owner: Any, opponent: Any, third: Any, staff: Any, bearer: Bearer
    ) -> None:
        game = three_player_game(owner, opponent, third)
        actor = [owner, opponent, third][game.to_act_seat or 0]
        action = bearer(actor).get(game_url(game)).json()["legal_actions"][0]
        disputes.game_void(game_id=game.pk, staff=staff, reason="A broken deal.")
        view = bearer(actor).get(game_url(game)).json()
        assert (view["status"], view["legal_actions"]) == ("void", [])
        response = bearer(actor).post(game_url(game, "actions"), {"action": action}, format="json")
        assert_error(response, 409, "game_not_active")
        assert not Move.objects.filter(game=game).exists()


def test_a_rated_games_seed_stays_secret_until_it_ends(
    owner: Any, opponent: Any, third: Any, staff: Any, bearer: Bearer, session: Any
) -> None:
    game = services.game_create(creator=owner, player_count=3)  # rated: a secret seed
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    actor = [owner, opponent, third][game.to_act_seat or 0]
    action = bearer(actor).get(game_url(game)).json()["legal_actions"][0]
    moved = bearer(actor).post(game_url(game, "actions"), {"action": action}, format="json")
    assert moved.status_code == 200
    assert game.seed not in moved.content.decode()
    callers = [bearer(owner), bearer(opponent), bearer(third), Client(), session(staff)]
    urls = [
        game_url(game),
        game_url(game, "moves"),
        "/api/v1/games/",
        "/api/v1/games/?mine=true",
        game_url(game, "export"),
    ]
    for number, client in enumerate(callers):
        for url in urls:
            if number == 3 and "mine" in url:
                continue
            response = client.get(url)
            assert game.seed not in response.content.decode(), (number, url)
    # Staff too, outside a dispute case (issue 26); inside one: tests/proof/test_staff_record.py


class TestDisputeWindow:
    @pytest.mark.parametrize(
        ("ended_ago", "status", "code"),
        [
            (timedelta(days=7) - timedelta(minutes=1), 201, None),
            (timedelta(days=7) + timedelta(minutes=1), 409, "dispute_not_allowed"),
        ],
        ids=["7-days-minus-a-minute", "7-days-plus-a-minute"],
    )
    def test_a_finished_game_can_be_disputed_for_seven_days(
        self,
        owner: Any,
        opponent: Any,
        third: Any,
        bearer: Bearer,
        ended_ago: timedelta,
        status: int,
        code: str | None,
    ) -> None:
        game = finished_game(owner, opponent, third)
        assert game.status == GameStatus.FINISHED
        Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - ended_ago)
        response = bearer(third).post(
            game_url(game, "disputes"), {"reason": "Hand 2 was settled wrongly."}, format="json"
        )
        if code is None:
            assert response.status_code == status, response.json()
            assert response.json()["status"] == "open"
        else:
            assert "7 days" in assert_error(response, status, code)["detail"]
            assert not game.disputes.exists()


def test_the_rules_check_of_a_record_passes_the_real_one_and_fails_tampered_ones(
    owner: Any, opponent: Any, third: Any, anonymous: Client
) -> None:
    game = finished_game(owner, opponent, third)
    record = anonymous.get(game_url(game, "export")).json()
    assert record_rules_problems(record) == []

    seed = copy.deepcopy(record)
    seed["seed"] += "!"
    assert "the seed does not hash to the commitment" in record_rules_problems(seed)

    deal = copy.deepcopy(record)
    first, second = deal["hands"][0]["deal"]["0"][0], deal["hands"][0]["deal"]["1"][0]
    deal["hands"][0]["deal"]["0"][0], deal["hands"][0]["deal"]["1"][0] = second, first
    assert "hand 1: the deal is not the seed's" in record_rules_problems(deal)

    paid = copy.deepcopy(record)
    hand = next(h for h in paid["hands"] if h["payments"])
    hand["payments"][0]["owed"] += 1
    assert any("payments" in p for p in record_rules_problems(paid))

    won = copy.deepcopy(record)
    won["result"]["winner_seat"] = (won["result"]["winner_seat"] + 1) % 3
    assert any("won" in p for p in record_rules_problems(won))


def test_every_view_of_a_whole_game_keeps_the_contract(
    owner: Any, opponent: Any, third: Any, bearer: Bearer
) -> None:
    game = three_player_game(owner, opponent, third, variant="expert", seed="contract-1")
    clients = [bearer(user) for user in (owner, opponent, third)]
    rng = random.Random(4)
    seen: set[str] = set()
    for _ in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.IN_PROGRESS:
            break
        if game.to_act_seat is None:
            hand = clients[0].get(game_url(game)).json()["hand_number"]
            services.hand_settle(game_id=game.pk, hand_number=hand)
            continue
        seat = game.to_act_seat
        view = clients[seat].get(game_url(game)).json()
        _check_view(view, seat=seat, player_count=3)
        seen |= {action["type"] for action in view["legal_actions"]}
        action = rng.choice(view["legal_actions"])
        after = clients[seat].post(
            game_url(game, "actions"), {"action": action, "version": view["version"]}, format="json"
        )
        assert after.status_code == 200, after.json()
        _check_view(after.json(), seat=seat, player_count=3)
    assert game.status == GameStatus.FINISHED
    assert seen >= {"choose_edict", "papal_bull", "sin", "pass", "play"}, seen
