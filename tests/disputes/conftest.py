"""The cast of the dispute tests: three players (with email addresses, to be notified),
an outsider, and a member of staff; and games in the states disputes are about."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine.indulgence as rules
from games import services
from games.models import ActorKind, Dispute, Game, GameStatus, HandSettlement, Move
from games.services import store
from tests.helpers import game_with_seed

Users = dict[int, Any]


@pytest.fixture
def players(owner: Any, opponent: Any, third: Any) -> Users:
    return {0: owner, 1: opponent, 2: third}


def table_of_three(players: Users, **options: Any) -> Game:
    """A started three-player game of the given people."""
    options.setdefault("rated", False)
    if not options["rated"]:
        options.setdefault("seed", "disputes")
    seed = options.pop("seed", None)
    if seed is None:
        game = services.game_create(creator=players[0], player_count=3, **options)
    else:
        game = game_with_seed(creator=players[0], player_count=3, seed=seed, **options)
    services.game_join(game_id=game.pk, user=players[1])
    services.game_join(game_id=game.pk, user=players[2])
    game.refresh_from_db()
    return game


@pytest.fixture
def running_game(players: Users) -> Game:
    return table_of_three(players)


def playthrough(game: Game, seed: int = 0) -> list[dict[str, Any]]:
    """A whole game of random legal moves for this table, worked out by the engine alone
    (``advance`` steps included), as the services would log it."""
    rng = random.Random(seed)
    state = rules.state_from_json(game.snapshot)
    steps: list[dict[str, Any]] = []
    while not rules.is_over(state):
        seat = rules.to_act(state)
        if seat is None:
            state = rules.advance(state)
            steps.append({"seat": None, "action": {"type": "advance"}})
        else:
            action = rng.choice(rules.legal_actions(state, seat))
            state = rules.apply(state, seat, action)
            steps.append({"seat": seat, "action": action})
    return steps


def log_append(game: Game, players: Users, steps: list[dict[str, Any]]) -> Game:
    """Store steps straight into the log the way the services do (moves, settlements,
    snapshot, version), without a request per move: a game hundreds of moves long in a
    fraction of a second. Only for getting a table to where a test starts."""
    state = rules.state_from_json(game.snapshot)
    moves, settlements = [], []
    for step in steps:
        if step["action"]["type"] == "advance":
            hand = rules.view(state, None)["hand_number"]
            state = rules.advance(state)
            record = rules.full_record(state)["hands"][hand - 1]
            settlements.append(
                HandSettlement(
                    game=game,
                    hand_number=hand,
                    payments=record["payments"],
                    florins_after=record["florins_after"],
                )
            )
            actor = {"actor_kind": ActorKind.SYSTEM}
        else:
            state = rules.apply(state, step["seat"], step["action"])
            actor = {"actor_kind": ActorKind.HUMAN, "actor_user": players[step["seat"]]}
        game.move_count += 1
        game.version += 1
        moves.append(
            Move(
                game=game,
                seq=game.move_count,
                seat=step["seat"],
                action=step["action"],
                version_after=game.version,
                **actor,
            )
        )
    Move.objects.bulk_create(moves)
    HandSettlement.objects.bulk_create(settlements)
    store.store_state(game, state)
    game.save()
    return game


def steps_submit(game: Game, players: Users, steps: list[dict[str, Any]]) -> Game:
    """Play steps through the real services: actions by their players, settlements."""
    for step in steps:
        game.refresh_from_db()
        if step["action"]["type"] == "advance":
            hand = rules.view(rules.state_from_json(game.snapshot), None)["hand_number"]
            assert services.hand_settle(game_id=game.pk, hand_number=hand)
        else:
            services.action_submit(
                game_id=game.pk,
                user=players[step["seat"]],
                action=step["action"],
                expected_version=game.version,
            )
    game.refresh_from_db()
    return game


def finished_rated_game(players: Users, seed: int = 0) -> Game:
    """A rated game of three people that ends through the real services (the last hand's
    final moves, its settlement, the finish and the rating update)."""
    # Dealt from the fixed seed (a rated game draws a secret one, and a game from a random
    # seed may end early, by a bankruptcy or a papal bull: tests count its hands), then rated.
    game = table_of_three(players)
    Game.objects.filter(pk=game.pk).update(rated=True)
    game.rated = True
    steps = playthrough(game, seed)
    log_append(game, players, steps[:-6])
    return steps_submit(game, players, steps[-6:])


@pytest.fixture
def finished_game(players: Users) -> Game:
    game = finished_rated_game(players)
    assert game.status == GameStatus.FINISHED
    return game


@pytest.fixture
def dispute_on(players: Users) -> Callable[[Game], Dispute]:
    def open_dispute(game: Game, reason: str = "The settlement looks wrong.") -> Dispute:
        return services.dispute_create(game_id=game.pk, user=players[1], reason=reason)

    return open_dispute
