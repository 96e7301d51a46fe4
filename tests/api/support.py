"""Helpers for the API tests: game set-up, error checks, card-id hunting."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator
from typing import Any

from rest_framework.test import APIClient

import engine.indulgence as rules
from engine.cards import CARD_IDS, ids_of
from engine.indulgence.view import face_down
from games import services
from games.models import Game, Move
from tests.helpers import game_with_seed, play_humans_until

CARD_ID_SET = frozenset(CARD_IDS)
# An expert 3-player game whose random play (these choices) ends in a bankruptcy after
# about 30 moves: any seed would do, this one is quick.
QUICK_SEED, QUICK_CHOICES = "api-14", 12


class Client(APIClient):
    """An APIClient that remembers its clear bearer token (when it has one)."""

    token: str = ""


def three_player_game(owner: Any, opponent: Any, third: Any, **options: Any) -> Game:
    """An unrated, seeded 3-player game in progress: seats 0, 1, 2 in that order."""
    options.setdefault("rated", False)
    options.setdefault("seed", "api-test")
    seed = options.pop("seed", None)
    if seed is None:
        game = services.game_create(creator=owner, player_count=3, **options)
    else:
        game = game_with_seed(creator=owner, player_count=3, seed=seed, **options)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def finished_game(owner: Any, opponent: Any, third: Any, *, rated: bool = False) -> Game:
    """A finished 3-player game (see QUICK_SEED), played through the services."""
    game = three_player_game(owner, opponent, third, variant="expert", seed=QUICK_SEED)
    if rated:  # rated games draw a secret seed; the fixed one keeps the test quick
        Game.objects.filter(pk=game.pk).update(rated=True)
    users = {0: owner, 1: opponent, 2: third}
    return play_humans_until(game, users, rng=random.Random(QUICK_CHOICES))


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is the API's error shape with this status and code; returns the body."""
    body = response.json()
    assert response.status_code == status, body
    assert body["code"] == code, body
    assert isinstance(body["detail"], str), body
    assert body["detail"].endswith("."), body
    # errors: invalid_request's per field; reason: illegal_action's engine code.
    assert set(body) <= {"code", "detail", "errors", "reason"}, body
    return dict(body)


def game_url(game: Game | int, suffix: str = "") -> str:
    pk = game if isinstance(game, int) else game.pk
    return f"/api/v1/games/{pk}/{suffix}"


def fingerprint(game: Game) -> tuple[int, int, Any]:
    """What a refused request must leave alone: version, move rows, snapshot."""
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count(), game.snapshot


def card_ids(value: Any) -> Iterator[str]:
    """Every card id ("M7") anywhere in a JSON value: as a string value or a dict key."""
    if isinstance(value, str):
        if value in CARD_ID_SET:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_ids(key)
            yield from card_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_ids(item)


def hands(state: rules.State) -> dict[int, set[str]]:
    """The cards each seat holds in ``state`` (the truth, server side)."""
    return {seat: set(ids_of(mask)) for seat, mask in enumerate(state.hands)}


def hidden_from(state: rules.State, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) must not see: every other seat's hand, and
    the cards other seats played face down in the trick still being played."""
    hidden = {card for other, held in hands(state).items() if other != seat for card in held}
    if face_down(state):
        hidden |= {CARD_IDS[card] for player, card, _ring in state.plays if player != seat}
    return hidden


class TruthLog:
    """The real state of one game at every version, rebuilt from its stored move log.

    Server-side knowledge for the hidden-information checks: what each seat really holds
    when a response of a given ``version`` was produced.
    """

    def __init__(self, game_id: int) -> None:
        game = Game.objects.get(pk=game_id)
        self.game_id = game_id
        self.state = rules.new_game(game.player_count, game.variant, game.seed)
        self.states: list[tuple[int, rules.State]] = [(0, self.state)]
        self.seq = 0

    def at(self, version: int) -> rules.State:
        log = Move.objects.filter(game_id=self.game_id, seq__gt=self.seq, archived_at=None)
        for move in log.order_by("seq"):
            if move.action.get("type") == "advance":
                self.state = rules.advance(self.state)
            else:
                assert move.seat is not None
                self.state = rules.apply(self.state, move.seat, move.action)
            self.seq = move.seq
            self.states.append((move.version_after, self.state))
        return next(state for after, state in reversed(self.states) if after <= version)


# --- a rules check of exported records, independent of the engine ------------------------

_DECK = [f"{family}{rank}" for family in "BMOS" for rank in range(1, 10)]


def _derived(seed: str, label: str) -> random.Random:
    """docs/engine.md "Seeds", from the text: HMAC-SHA256(key=seed, msg=label)."""
    digest = hmac.new(seed.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def record_rules_problems(record: dict[str, Any]) -> list[str]:
    """Check an exported record by the rules text, without the engine: the commitment,
    every deal and Ruler re-derived from the seed, every trick (one card a seat, from
    the player's own deal, never twice, the winner leads next), every payment by the
    reference scorer (tests/engine/support.py), the florins and the result."""
    from tests.engine.support import reference_settlement

    problems: list[str] = []
    n = record["player_count"]
    seed = record["seed"]
    if hashlib.sha256(seed.encode("utf-8")).hexdigest() != record["seed_commitment"]:
        problems.append("the seed does not hash to the commitment")
    first_ruler = _derived(seed, "first-ruler").randrange(n)
    if record["first_ruler"] != first_ruler:
        problems.append(f"first Ruler {record['first_ruler']}, the seed gives {first_ruler}")
    florins = {str(s): 30 for s in range(n)}
    per_seat = 36 // n
    for hand in record["hands"]:
        number = hand["number"]
        cards = list(_DECK)
        _derived(seed, f"deal:{number}").shuffle(cards)
        deal = {
            str(s): sorted(cards[s * per_seat : (s + 1) * per_seat], key=_DECK.index)
            for s in range(n)
        }
        if hand["deal"] != deal:
            problems.append(f"hand {number}: the deal is not the seed's")
        if hand["ruler"] != (first_ruler + number - 1) % n:
            problems.append(f"hand {number}: the Ruler is not the next seat")
        if hand["round"] != (number - 1) // n + 1:
            problems.append(f"hand {number}: round {hand['round']} is wrong")
        played: set[str] = set()
        leader = None
        for index, trick in enumerate(hand["tricks"]):
            seats = [play["seat"] for play in trick["plays"]]
            if sorted(seats) != list(range(n)) or seats[0] != trick["leader"]:
                problems.append(f"hand {number} trick {index + 1}: not one card per seat")
            if leader is not None and trick["leader"] != leader:
                problems.append(f"hand {number} trick {index + 1}: the winner did not lead")
            leader = trick["winner"]
            for play in trick["plays"]:
                card = play["card"]
                if card not in hand["deal"][str(play["seat"])] or card in played:
                    problems.append(f"hand {number}: seat {play['seat']} played {card}")
                played.add(card)
        expected, _success, _papal = reference_settlement(hand, florins, n)
        paid = [(p["payer"], p["payee"], p["owed"], p["paid"]) for p in hand["payments"]]
        if paid != expected:
            problems.append(f"hand {number}: payments {paid}, the rules give {expected}")
        after = dict(florins)
        for payer, payee, owed, amount in expected:
            after[str(payer)] -= amount
            after[str(payee)] += owed
        if hand["florins_after"] != after:
            problems.append(f"hand {number}: florins after {hand['florins_after']}, not {after}")
        florins = after
    result = record["result"]
    if result["florins"] != florins:
        problems.append(f"result florins {result['florins']}, the hands give {florins}")
    last = record["hands"][-1] if record["hands"] else None
    if last is not None and last["papal_bull"] and last["sin_succeeded"]:
        # A successful papal-bull sin wins outright.
        if (result["reason"], result["winner_seat"]) != ("papal_bull_sin", last["sinner"]):
            problems.append("a papal-bull sin succeeded but the sinner did not win")
    else:
        # The most florins wins; on a tie, the tied player who was Ruler most recently.
        best = [int(s) for s, amount in florins.items() if amount == max(florins.values())]
        rulers = [h["ruler"] for h in record["hands"]]
        winner = max(
            best, key=lambda s: max((i for i, r in enumerate(rulers) if r == s), default=-1)
        )
        if result["winner_seat"] != winner:
            problems.append(f"seat {result['winner_seat']} won; the rules say seat {winner}")
    return problems
