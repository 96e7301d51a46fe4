"""Pax Illuminaten through the API (issue 25 item 4, api.md "Many games"): the game type,
a game created with ``game_type: "pax"``, every answer in its documented shape, whole
games played by API clients choosing among H.7's legal actions against built-in bots,
the record that verifies by replay (P-75), secret actions sealed for others (P-73), the
automatic steps claimed once (P-70), the defender's own notification (P-74) and 15.2.4's
autopilot for an absent defender (P-72), refusals, ratings per game."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.pax import engine as pax_engine
from engine.pax.bots import autopilot_oust_card
from engine.pax.view import suggest_payment
from engine.pax.view import view as pax_view
from games import kinds, selectors, services
from games.api import serializers as shapes
from games.api.shapes_pax import PaxExportResponse, PaxGameViewResponse
from games.kinds.pax import sealed, verify_record
from games.models import ActorKind, Game, GameStatus, Notification, Rating
from tests.api.conftest import Bearer
from tests.api.support import Client, game_url
from tests.api.test_schema import assert_shape
from tests.helpers import game_with_seed, server_steps

pytestmark = pytest.mark.django_db


def pax_game(owner: Any, bearer: Bearer, **body: Any) -> tuple[Client, dict[str, Any]]:
    client = bearer(owner)
    request = {
        "game_type": "pax",
        "player_count": 3,
        "rated": False,
        "seed": "api-pax-0",
        "options": {"round_cap": 2},
        "bots": [{"seat": s, "bot": "random"} for s in (1, 2)],
        **body,
    }
    response = client.post("/api/v1/games/", request, format="json")
    assert response.status_code == 201, response.json()
    server_steps(Game.objects.get(pk=response.json()["id"]))
    return client, response.json()


def play_through_api(
    clients: dict[int, Client], url: str, rng: random.Random, *, limit: int = 3000
) -> tuple[dict[str, Any], set[str]]:
    """Each seat's client picks a legal action of its own view (an API bot) until the game
    ends; the server's steps and built-in bots run in between. Returns the last view
    and the decision kinds seen."""
    kinds_seen: set[str] = set()
    any_client = next(iter(clients.values()))
    for _ in range(limit):
        view = any_client.get(url).json()
        if view["status"] != GameStatus.IN_PROGRESS:
            return view, kinds_seen
        seat = view["to_act"]
        if seat not in clients:
            server_steps(Game.objects.get(pk=view["id"]))
            continue
        mine = clients[seat].get(url).json()
        assert_shape(PaxGameViewResponse(), mine, "view")
        assert mine["legal_actions"], mine["state"]["pending"]
        kinds_seen.add(mine["state"]["pending"][-1]["kind"])
        answer = clients[seat].post(
            f"{url}actions",
            {"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the game did not end")


def test_the_game_types_describe_pax(anonymous: Client) -> None:
    types = anonymous.get("/api/v1/game-types/").json()
    assert [t["key"] for t in types] == ["indulgence", "eleusis", "pax"]
    pax = types[2]
    assert pax["title"] == "Pax Illuminaten"
    assert pax["player_counts"] == [2, 3, 4]
    assert {v["key"] for v in pax["variants"]} >= {"standard"}
    assert "random" in {b["key"] for b in pax["bots"]}
    # P-72: heuristic once the engine has it, random until then.
    expected = "heuristic" if "heuristic" in kinds.get("pax").meta.bots else "random"
    assert pax["autopilot"] == expected
    assert anonymous.get(pax["rules_url"]).status_code == 200
    assert_shape(shapes.GameTypeResponse(many=True), types, "game types")


def test_a_person_plays_a_whole_pax_game_against_bots_over_the_api(
    owner: Any, bearer: Bearer, anonymous: Client
) -> None:
    client, view = pax_game(owner, bearer)
    assert view["game_type"] == "pax"
    assert_shape(PaxGameViewResponse(), view, "created")
    url = game_url(Game.objects.get(pk=view["id"]))
    spectator = anonymous.get(url).json()
    assert_shape(PaxGameViewResponse(), spectator, "spectator")
    assert spectator["legal_actions"] == []
    view, seen = play_through_api({0: client}, url, random.Random(3))
    assert view["status"] == "finished"
    assert "action" in seen
    assert view["result"]["reason"] in ("plot", "faction_scoring")
    assert sum(len(group) for group in view["result"]["ranking"]) == 3
    assert view["seed"]["value"] is not None  # published at the end (15.3.1)

    record = anonymous.get(f"{url}export").json()
    assert_shape(PaxExportResponse(), record, "record")
    assert record["format"] == "pax-record/1"
    assert record["game_type"] == "pax"
    assert selectors.record_verify(record) == []
    assert record["seats"][0]["username"] == owner.username
    moves = anonymous.get(f"{url}moves").json()["moves"]
    assert len(moves) == len(record["moves"])
    assert any(m["action"]["type"] == "advance" for m in moves)  # automatic steps (P-70)


def test_the_seat_to_act_gets_payment_help_and_nobody_else_does(
    owner: Any, opponent: Any, bearer: Bearer, anonymous: Client
) -> None:
    """15.5.1, P-87: the acting seat's JSON view carries one ``payment_help`` entry per
    legal action, the engine's suggested payment (``suggest_payment``) among them; the
    other seat's view and a spectator's carry an empty list (15.4)."""
    game = game_with_seed(
        creator=owner, seed="api-pax-pay", game_type="pax", player_count=2, rated=False
    )
    services.game_join(game_id=game.pk, user=opponent)
    clients = {0: bearer(owner), 1: bearer(opponent)}
    url = game_url(game)
    rng = random.Random(5)
    for _ in range(200):
        server_steps(game)
        game.refresh_from_db()
        seat = game.to_act_seat
        assert seat is not None
        mine = clients[seat].get(url).json()
        assert_shape(PaxGameViewResponse(), mine, "view")
        helps = mine["payment_help"]
        assert len(helps) == len(mine["legal_actions"])
        assert clients[1 - seat].get(url).json()["payment_help"] == []
        assert anonymous.get(url).json()["payment_help"] == []
        if any(h["payment"] for h in helps):
            state = kinds.of(game).load(game.snapshot)
            for action, h in zip(mine["legal_actions"], helps, strict=True):
                assert h["payment"] == suggest_payment(state, seat, action)
                assert h["payable"] is True
            return
        answer = clients[seat].post(
            f"{url}actions",
            {"action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("no action with a payment to choose in 200 decisions")


def test_a_void_game_offers_no_action_and_no_payment_help(owner: Any, bearer: Bearer) -> None:
    """P-87: ``payment_help`` stays aligned with ``legal_actions`` when a game is called
    off before anyone played (both empty: ``GameKind.action_aligned``)."""
    client, view = pax_game(owner, bearer)
    url = game_url(Game.objects.get(pk=view["id"]))
    mine = client.get(url).json()
    assert mine["to_act"] == 0
    assert len(mine["payment_help"]) == len(mine["legal_actions"]) > 0
    response = client.post(f"{url}abort", {}, format="json")
    assert response.status_code == 200, response.json()
    void = client.get(url).json()
    assert void["status"] == "void"
    assert (void["legal_actions"], void["payment_help"]) == ([], [])
    assert_shape(PaxGameViewResponse(), void, "void")


def test_three_api_clients_play_a_whole_game_and_the_record_catches_tampering(
    owner: Any, opponent: Any, third: Any, bearer: Bearer, anonymous: Client
) -> None:
    game = game_with_seed(
        creator=owner,
        seed="api-pax-3",
        game_type="pax",
        player_count=3,
        rated=True,
        options={"round_cap": 2},
    )
    for user in (opponent, third):
        services.game_join(game_id=game.pk, user=user)
    clients = {n: bearer(u) for n, u in enumerate((owner, opponent, third))}
    server_steps(game)
    view, seen = play_through_api(clients, game_url(game), random.Random(11), limit=20000)
    assert view["status"] == "finished"
    assert {"action", "pay"} <= seen
    record = anonymous.get(game_url(game, "export")).json()
    assert verify_record(record) == []
    # Ratings per game (api.md): one row per account for Pax, 3 players.
    assert Rating.objects.filter(game_type="pax", player_count=3).count() == 3
    tampered = {**record, "moves": record["moves"][:-1]}
    assert verify_record(tampered)
    wrong_seed = {**record, "seed": {**record["seed"], "value": "another"}}
    assert any("commitment" in p for p in verify_record(wrong_seed))


def test_secret_actions_keep_only_their_type_for_others_until_the_end() -> None:
    """P-73 (H.8): another seat's oust_card, keep_event and keep_plot show their type."""
    assert sealed({"type": "oust_card", "card": "PIL031"}) == {"type": "oust_card"}
    assert sealed({"type": "keep_event", "event": "S05"}) == {"type": "keep_event"}
    assert sealed({"type": "keep_plot", "plot": "P04"}) == {"type": "keep_plot"}
    influence = {"type": "influence", "by": "main", "target": [2, 4], "n": 2}
    assert sealed(influence) == influence


def _to_defender_decision(game: Game, clients: dict[int, Client], rng: random.Random) -> None:
    """Play (both seats random) until the defender of an Oust must choose its card."""
    for _ in range(4000):
        server_steps(game)
        game.refresh_from_db()
        assert game.status == GameStatus.IN_PROGRESS, "no Oust in this game"
        state = kinds.of(game).load(game.snapshot)
        seat = pax_engine.to_act(state)
        assert seat is not None
        if state.pending[-1][1] == "oust_card" and seat != state.active:
            return
        actions = pax_engine.legal_actions(state, seat)
        ousts = [a for a in actions if a.get("type") == "oust"]
        action = rng.choice(ousts or actions)
        answer = clients[seat].post(
            game_url(game, "actions"), {"action": action, "version": game.version}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("no defender's decision reached")


def test_the_defender_is_told_and_an_absent_defender_gets_the_autopilot_of_15_2_4(
    owner: Any, opponent: Any, bearer: Bearer
) -> None:
    """15.1.2 and P-74: the defender's sealed card is asked of them with a notification
    of their own; P-72: when their time runs out, 15.2.4's public choice is made from
    their view and logged as a timeout."""
    game = game_with_seed(
        creator=owner,
        seed="oust-1",  # an Oust in 70 decisions of this random play
        game_type="pax",
        player_count=2,
        rated=False,
        turn_timeout_seconds=3600,
    )
    services.game_join(game_id=game.pk, user=opponent)
    clients = {0: bearer(owner), 1: bearer(opponent)}
    _to_defender_decision(game, clients, random.Random(5))
    game.refresh_from_db()
    state = kinds.of(game).load(game.snapshot)
    defender = pax_engine.to_act(state)
    user = (owner, opponent)[defender]
    told = Notification.objects.filter(user=user, game=game).order_by("-id").first()
    assert told is not None
    assert "ousted" in told.title, told.title
    assert game.turn_deadline is not None  # the defender's own clock (15.1.2)
    expected = autopilot_oust_card(pax_view(state, defender))
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.turn_timeout_handle(game_id=game.pk, expected_version=game.version)
    move = game.moves.order_by("-seq").first()
    assert move is not None
    assert (move.seat, move.action, move.actor_kind) == (defender, expected, ActorKind.TIMEOUT)


def test_an_automatic_step_is_claimed_once(owner: Any, bearer: Bearer) -> None:
    """P-70: the step's key is the log's length; a second delivery does nothing."""
    _client, view = pax_game(owner, bearer, options={"round_cap": 1})
    game = Game.objects.get(pk=view["id"])
    rng = random.Random(2)
    for _ in range(500):
        game.refresh_from_db()
        assert game.status == GameStatus.IN_PROGRESS
        state = kinds.of(game).load(game.snapshot)
        if game.to_act_seat is None:
            key = kinds.of(game).step_key(state)
            assert key == len(state.log)
            assert services.step_run(game_id=game.pk, key=key)
            assert not services.step_run(game_id=game.pk, key=key)  # a second delivery
            game.refresh_from_db()
            assert kinds.of(game).step_key(kinds.of(game).load(game.snapshot)) != key
            return
        if game.to_act_seat != 0:
            assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
            continue
        action = rng.choice(pax_engine.legal_actions(state, 0))
        services.action_submit(game_id=game.pk, user=owner, action=action)
    raise AssertionError("no automatic step was due")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"player_count": 5}, "player_count"),
        ({"player_count": 3, "options": {"round_cap": 0}}, "round_cap"),
        ({"player_count": 3, "options": {"colour": "red"}}, "unknown option"),
        ({"player_count": 3, "variant": "automa-XX"}, "variant"),
        ({"player_count": 3, "bots": [{"seat": 1, "bot": "scientist"}]}, "scientist"),
    ],
)
def test_create_refuses_what_pax_does_not_take_and_says_why(
    body: dict[str, Any], words: str, owner: Any, bearer: Bearer
) -> None:
    response = bearer(owner).post(
        "/api/v1/games/", {"game_type": "pax", "rated": False, **body}, format="json"
    )
    assert response.status_code == 400
    assert words in str(response.json()), response.json()


def test_a_refused_action_names_the_rule_and_changes_nothing(owner: Any, bearer: Bearer) -> None:
    client, view = pax_game(owner, bearer)
    game = Game.objects.get(pk=view["id"])
    version = game.version
    answer = client.post(
        game_url(game, "actions"),
        {"action": {"type": "influence", "by": "main", "target": [99, 99], "n": 1}},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "illegal_action"
    game.refresh_from_db()
    assert game.version == version


@pytest.mark.parametrize("automa", ["SG", "AW"])
def test_a_person_alone_plays_a_whole_game_against_an_automa_over_the_api(
    owner: Any, bearer: Bearer, anonymous: Client, automa: str
) -> None:
    """P-78 (3.1, R12, issue 25 item 3): a 2-seat ``automa-<bot>`` table is the creator and
    the automa in the last seat; it starts at once, the automa's turns are automatic steps
    (it is never to act), and the record verifies; a rematch seats the automa again."""
    client, view = pax_game(
        owner, bearer, player_count=2, variant=f"automa-{automa}", bots=[], seed=f"solo-{automa}"
    )
    assert view["status"] == "in_progress"
    game = Game.objects.get(pk=view["id"])
    seats = {s.number: s for s in game.seats.select_related("player__user")}
    assert sorted(seats) == [0, 1]
    assert seats[1].bot_kind == f"automa-{automa}"
    assert kinds.of(game).bot_title(seats[1].bot_kind).endswith("(automa)")
    url = game_url(game)
    view, seen = play_through_api({0: client}, url, random.Random(5))
    assert view["status"] == "finished"
    assert "action" in seen
    automa_moves = [m for m in anonymous.get(f"{url}moves").json()["moves"] if m["seat"] == 1]
    assert automa_moves == []  # the automa never acts through the server: its steps do
    record = anonymous.get(f"{url}export").json()
    assert selectors.record_verify(record) == []
    again = services.game_rematch(game_id=game.pk, user=owner)
    assert again.variant == f"automa-{automa}"
    assert again.status == GameStatus.IN_PROGRESS
    assert dict(again.seats.values_list("number", "bot_kind")) == {0: "", 1: f"automa-{automa}"}


def test_an_automa_table_with_a_seat_bot_and_the_automa_s_seat_refused(
    owner: Any, bearer: Bearer
) -> None:
    """P-78: at 3 seats with an automa, seat 1 may hold a seat bot and seat 2 is the
    automa's; asking a bot for the automa's seat is refused, naming the automa."""
    client, view = pax_game(
        owner, bearer, variant="automa-J2", bots=[{"seat": 1, "bot": "random"}], seed="trio"
    )
    game = Game.objects.get(pk=view["id"])
    assert dict(game.seats.values_list("number", "bot_kind")) == {
        0: "",
        1: "random",
        2: "automa-J2",
    }
    refused = client.post(
        "/api/v1/games/",
        {
            "game_type": "pax",
            "player_count": 2,
            "variant": "automa-J2",
            "rated": False,
            "bots": [{"seat": 1, "bot": "random"}],
        },
        format="json",
    )
    assert refused.status_code == 400
    assert "Joseph II (automa)" in str(refused.json())
