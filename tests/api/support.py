"""Helpers for the API tests: game set-up, error checks, card-id hunting."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rest_framework.test import APIClient

import engine.indulgence as rules
from engine.cards import CARD_IDS, ids_of
from engine.indulgence.view import face_down
from games import services
from games.models import Game, Move
from tests.helpers import play_humans_until

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
    game = services.game_create(creator=owner, player_count=3, **options)
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
    assert set(body) <= {"code", "detail", "errors"}, body
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
