"""New Eleusis through the API (issue 24, api.md "Many games"): the game types, a game
created with ``game_type``, every answer in its documented shape, the actions of NE-31.2
(a library rule, plays, no plays, a prophet's declaration and calls), refusals as specific
as Indulgence's, the record that verifies, the moves others see sealed, and ratings per
game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import eleusis
from games import kinds, selectors, services
from games.api import serializers as shapes
from games.api.shapes_eleusis import EleusisExportResponse, EleusisGameViewResponse
from games.kinds.eleusis import sealed
from games.models import Game, GameStatus, Rating
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error, game_url
from tests.api.test_schema import assert_shape
from tests.helpers import game_with_seed, server_steps

pytestmark = pytest.mark.django_db

FAST = {"hand_size": 4, "sanity_walks": 20, "round_limit": 1}
FIRST_DEALER_0 = "deal-0"  # a seed whose first dealer is seat 0 (E04)
SANDBOX_SEED = "api-eleusis-0"  # a seed whose first dealer is seat 3: seat 0 plays


def eleusis_game(owner: Any, bearer: Bearer, **body: Any) -> tuple[Client, dict[str, Any]]:
    client = bearer(owner)
    request = {
        "game_type": "eleusis",
        "player_count": 4,
        "rated": False,
        "seed": SANDBOX_SEED,  # the same deal every run; seat 3 deals first
        "options": FAST,
        "bots": [{"seat": s, "bot": "novice"} for s in (1, 2, 3)],
        **body,
    }
    response = client.post("/api/v1/games/", request, format="json")
    assert response.status_code == 201, response.json()
    server_steps(Game.objects.get(pk=response.json()["id"]))
    return client, response.json()


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of the caller's view, as a client would pick it: a library rule
    when dealing, a single card or a no play (now and then declaring prophet), the
    prophet's majority-free random call."""
    explicit = [a for a in view["legal_actions"] if "template" not in a]
    if view["phase"] == "rule_setup":
        return {"type": "library_rule", "difficulty": "easy"}
    action = dict(rng.choice(explicit))
    if action["type"] in ("play", "no_play") and view["prophet_possible"] and rng.random() < 0.3:
        action["prophet"] = "declare"
    return action


def test_the_game_types_describe_every_game(anonymous: Client) -> None:
    types = anonymous.get("/api/v1/game-types/").json()
    assert [t["key"] for t in types][:2] == ["indulgence", "eleusis"]
    eleusis_type = types[1]
    assert eleusis_type["player_counts"] == list(eleusis.META.player_counts)
    assert eleusis_type["rated_player_counts"] == [4, 5, 6, 7, 8]
    assert next(v["key"] for v in eleusis_type["variants"]) == "standard"
    assert {b["key"] for b in eleusis_type["bots"]} == {"random", "novice", "scientist"}
    assert eleusis_type["autopilot"] == "novice"
    assert anonymous.get(eleusis_type["rules_url"]).status_code == 200
    assert_shape(shapes.GameTypeResponse(many=True), types, "game types")


def test_a_person_plays_a_whole_eleusis_game_against_bots_over_the_api(
    owner: Any, bearer: Bearer, anonymous: Client
) -> None:
    client, view = eleusis_game(owner, bearer)
    assert view["game_type"] == "eleusis"
    assert view["status"] == "in_progress"
    assert_shape(EleusisGameViewResponse(), view, "created")
    url = game_url(Game.objects.get(pk=view["id"]))
    rng = random.Random(4)
    seen_phases: set[str] = set()
    for _ in range(400):
        view = client.get(url).json()
        assert_shape(EleusisGameViewResponse(), view, "view")
        if view["status"] != GameStatus.IN_PROGRESS:
            break
        seen_phases.add(view["phase"])
        if view["to_act"] != view["my_seat"]:
            server_steps(Game.objects.get(pk=view["id"]))  # bots and the end of a round
            continue
        answer = client.post(
            f"{url}actions",
            {"action": choose(view, rng), "version": view["version"]},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
        assert_shape(EleusisGameViewResponse(), answer.json(), "answer")
    assert view["status"] == "finished", view["phase"]
    assert {"turn"} <= seen_phases
    assert view["result"]["ranking"]
    assert view["result"]["winner_seats"]
    assert sum(len(group) for group in view["result"]["ranking"]) == 4

    record = anonymous.get(f"{url}export").json()
    assert_shape(EleusisExportResponse(), record, "record")
    assert record["format"] == "eleusis-record-1"
    assert record["game_type"] == "eleusis"
    assert record["game_status"] == "finished"
    assert eleusis.verify(record).ok, eleusis.verify(record).problems
    assert selectors.record_verify(record) == []
    assert next(s["username"] for s in record["seats"]) == owner.username
    moves = anonymous.get(f"{url}moves").json()["moves"]
    assert len(moves) == len(record["moves"])  # finished: every move shown whole
    assert any(m["action"]["type"] == "advance" for m in moves)  # the end of the round


def test_the_rule_of_the_dealer_is_sealed_in_the_move_log_for_everyone_else(
    owner: Any, opponent: Any, bearer: Bearer, anonymous: Client
) -> None:
    """The dealer's library rule (its id) is not shown to anyone else while the game goes
    on (NE-23.4, NE-29.3.9): not to the other person, not to a spectator; the dealer sees
    their own move whole."""
    game = game_with_seed(
        creator=owner,
        seed=FIRST_DEALER_0,
        game_type="eleusis",
        player_count=4,
        rated=False,
        options=FAST,
        bots=[(2, "novice"), (3, "novice")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    dealer = bearer(owner)
    server_steps(game)
    view = dealer.get(game_url(game)).json()
    assert (view["phase"], view["to_act"]) == ("rule_setup", 0)
    picked = {"type": "library_rule", "id": "R02", "confirm_warnings": True}
    answer = dealer.post(game_url(game, "actions"), {"action": picked}, format="json")
    assert answer.status_code == 200, answer.json()
    for reader in (anonymous, bearer(opponent)):
        moves = reader.get(game_url(game, "moves")).json()["moves"]
        assert moves[0]["action"] == {**picked, "id": None}
    own = dealer.get(game_url(game, "moves")).json()["moves"]
    assert own[0]["action"] == picked
    assert dealer.get(game_url(game)).json()["dealer_secret"]["library_id"] == "R02"
    assert bearer(opponent).get(game_url(game)).json()["dealer_secret"] is None


def test_sealed_moves_keep_the_rule_intent_and_warning_from_others() -> None:
    """Our ruling OR46: what others see of a move while the game goes on."""
    assert sealed({"type": "set_rule", "source": "accept true", "confirm_warnings": True}) == {
        "type": "set_rule",
        "source": None,
    }
    assert sealed({"type": "library_rule", "id": "R02"}) == {"type": "library_rule", "id": None}
    assert sealed({"type": "set_prophecy", "source": "accept true"})["source"] is None
    assert sealed({"type": "play", "cards": ["QH.1"], "prophet": "declare"}) == {
        "type": "play",
        "cards": ["QH.1"],
        "prophet": None,
    }
    assert sealed({"type": "call", "verdict": "right"}) == {"type": "call", "verdict": "right"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game_type": "chess", "player_count": 4}, "game_type"),
        ({"game_type": "eleusis", "player_count": 11}, "player_count"),
        ({"game_type": "eleusis", "player_count": 4, "variant": "basic"}, "variant"),
    ],
)
def test_create_checks_the_values_against_the_games_entry(
    body: dict[str, Any], field: str, owner: Any, bearer: Bearer
) -> None:
    response = bearer(owner).post("/api/v1/games/", body, format="json")
    assert field in assert_error(response, 400, "invalid_request")["errors"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"player_count": 3, "rated": True}, "Rated New Eleusis tables have 4, 5, 6, 7 or 8"),
        ({"player_count": 4, "rated": False, "options": {"hand_size": 40}}, "hand_size"),
        ({"player_count": 4, "rated": False, "options": {"colour": "red"}}, "unknown option"),
        (
            {"player_count": 4, "rated": False, "bots": [{"seat": 1, "bot": "heuristic"}]},
            "no built-in bot called 'heuristic'",
        ),
    ],
)
def test_create_refuses_what_new_eleusis_does_not_take_and_says_why(
    body: dict[str, Any], words: str, owner: Any, bearer: Bearer
) -> None:
    response = bearer(owner).post("/api/v1/games/", {"game_type": "eleusis", **body}, format="json")
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_refusals_name_the_games_own_code(owner: Any, opponent: Any, bearer: Bearer) -> None:
    client, view = eleusis_game(owner, bearer)
    game = Game.objects.get(pk=view["id"])
    for _ in range(50):
        server_steps(game)
        view = client.get(game_url(game)).json()
        if view["to_act"] == view["my_seat"] and view["phase"] == "turn":
            break
        if view["to_act"] == view["my_seat"]:
            client.post(
                game_url(game, "actions"), {"action": choose(view, random.Random(2))}, format="json"
            )
    else:
        pytest.fail("the person never had a turn")
    bad = client.post(
        game_url(game, "actions"), {"action": {"type": "play", "cards": []}}, format="json"
    )
    assert assert_error(bad, 400, "illegal_action")["reason"] == "bad_action"
    foreign = client.post(
        game_url(game, "actions"),
        {"action": {"type": "play", "cards": ["ZZ.9"], "prophet": "no"}},
        format="json",
    )
    assert assert_error(foreign, 400, "illegal_action")["reason"] in (
        "bad_action",
        "card_not_in_hand",
    )
    stale = client.post(
        game_url(game, "actions"),
        {"action": view["legal_actions"][0], "version": view["version"] - 1},
        format="json",
    )
    assert_error(stale, 409, "version_conflict")
    outsider = bearer(opponent).post(
        game_url(game, "actions"), {"action": view["legal_actions"][0]}, format="json"
    )
    assert_error(outsider, 403, "not_seated")


def test_a_rated_eleusis_game_rates_in_its_own_pool(owner: Any, bearer: Bearer) -> None:
    game = services.game_create(
        creator=owner,
        game_type="eleusis",
        player_count=4,
        rated=True,
        options=FAST,
        bots=[(1, "novice"), (2, "novice"), (3, "random")],
    )
    play_through(game, owner)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    pools = set(Rating.objects.values_list("game_type", "variant", "player_count"))
    assert pools == {("eleusis", "standard", 4)}
    board = Client().get("/api/v1/leaderboard?game_type=eleusis&variant=standard&player_count=4")
    # one rating per account: the two novice seats are one bot account
    assert {e["username"] for e in board.json()["entries"]} == {
        owner.username,
        "bot-novice",
        "bot-random",
    }
    assert board.json()["game_type"] == "eleusis"
    indulgence_board = Client().get("/api/v1/leaderboard").json()
    assert indulgence_board["entries"] == []
    assert indulgence_board["game_type"] == "indulgence"


def play_through(game: Game, owner: Any, seed: int = 0) -> Game:
    """Play the person's seat with ``choose`` through the services until the game ends."""
    rng = random.Random(seed)
    for _ in range(500):
        server_steps(game)
        if game.status != GameStatus.IN_PROGRESS:
            return game
        view = selectors.game_view(game=game, user=owner)
        services.action_submit(
            game_id=game.pk, user=owner, action=choose(view, rng), expected_version=game.version
        )
    raise AssertionError("the game did not end")


def test_the_end_of_a_round_is_taken_exactly_once(owner: Any, bearer: Bearer) -> None:
    """The automatic step (scoring, reveal, the next round) runs once per round: a
    repeated or stale task finds the game elsewhere (its key: round and step)."""
    game = services.game_create(
        creator=owner,
        game_type="eleusis",
        player_count=4,
        rated=False,
        options={**FAST, "round_limit": 2},
        bots=[(1, "novice"), (2, "novice"), (3, "novice")],
    )
    rng = random.Random(6)
    kind = kinds.of(game)
    for _ in range(500):
        game.refresh_from_db()
        if game.to_act_seat is None and game.status == GameStatus.IN_PROGRESS:
            key = kind.step_key(kind.load(game.snapshot))
            assert services.step_run(game_id=game.pk, key=key) is True
            assert services.step_run(game_id=game.pk, key=key) is False  # the repeat
            assert services.step_run(game_id=game.pk, key=key + 1) is False  # a stale key
            break
        if game.to_act_seat == 0:
            view = selectors.game_view(game=game, user=owner)
            services.action_submit(game_id=game.pk, user=owner, action=choose(view, rng))
        else:
            assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
    else:
        pytest.fail("no round ended")
    game.refresh_from_db()
    assert game.moves.filter(action={"type": "advance"}).count() == 1
