"""Helpers shared by the server tests."""

from __future__ import annotations

import random
import time
from typing import Any

from django.db import connection, transaction

from games import kinds, selectors, services
from games.models import Game, GameStatus


def game_with_seed(*, creator: Any, seed: str, **options: Any) -> Game:
    """An open game other people may join, dealt from ``seed``: a test's fixed deal.

    Through the services a chosen seed makes a sandbox that nobody else may join (issue
    26); a test that seats several people at known cards creates the game as the server
    does (with a drawn seed) and sets the seed it needs before the deal."""
    game = services.game_create(creator=creator, **options)
    assert game.status == GameStatus.OPEN, "a game dealt at creation has its seed already"
    commitment = kinds.of(game).engine.seed_commitment(seed)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_commitment=commitment)
    game.refresh_from_db()
    return game


def snapshot_mismatches() -> list[str]:
    """Games whose stored snapshot is not what replaying seed + moves gives (the live
    log: moves a rewind archived are not part of it).

    Outside a transaction (tests whose servers, workers or threads may still be moving)
    the games and their logs are read in one REPEATABLE READ snapshot on PostgreSQL, so
    a move committed between reading a game and reading its log cannot look like a
    mismatch."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return _snapshot_mismatches()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _snapshot_mismatches()


def _snapshot_mismatches() -> list[str]:
    problems = []
    for game in Game.objects.exclude(snapshot=None):
        live = game.moves.filter(archived_at=None).order_by("seq")
        moves = selectors.replay_moves(game, live)  # any game: its kind replays it
        state = selectors.game_replay(game, moves)
        if state != selectors.game_state(game):
            problems.append(f"game {game.pk} ({len(moves)} moves)")
    return problems


def play_humans_until(
    game: Game,
    users: dict[int, Any],
    *,
    stop_seat: int | None = None,
    rng: random.Random | None = None,
    max_moves: int = 5000,
) -> Game:
    """Play random legal moves for the human seats given until the game ends (or until
    ``stop_seat`` is to act). Settlements and bot turns run through the real services."""
    rng = rng or random.Random(0)
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.status != GameStatus.IN_PROGRESS:
            return game
        to_act = game.to_act_seat
        if to_act is None:
            view = selectors.game_view(game=game, user=users[min(users)])
            services.hand_settle(game_id=game.pk, hand_number=view["hand_number"])
            continue
        if to_act == stop_seat:
            return game
        if game.seats.get(number=to_act).bot_kind:
            services.bot_turn_play(game_id=game.pk, expected_version=game.version)
            continue
        if to_act not in users:
            raise AssertionError(f"seat {to_act} is to act but no user plays it")
        view = selectors.game_view(game=game, user=users[to_act])
        action = rng.choice(view["legal_actions"])
        services.action_submit(
            game_id=game.pk, user=users[to_act], action=action, expected_version=game.version
        )
    raise AssertionError("the game did not end")


def server_steps(game: Game, *, limit: int = 2000) -> Game:
    """Take the steps the server takes by itself until a person is to act (or the game is
    over): automatic steps (any game's: its kind's ``step_key``) and built-in bots' turns.
    For tests inside a transaction, where nothing queued after commit runs."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.IN_PROGRESS:
            return game
        if game.to_act_seat is None:
            state = kinds.of(game).load(game.snapshot)
            assert services.step_run(game_id=game.pk, key=kinds.of(game).step_key(state))
        elif game.seats.get(number=game.to_act_seat).bot_kind:
            assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
        else:
            return game
    raise AssertionError("the server's steps did not end")


def wait_until_a_request_waits_for_a_lock() -> bool:
    """Poll PostgreSQL until some session waits for a lock (at most 10 s); whether one did."""
    with connection.cursor() as cursor:
        for _ in range(100):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.1)
    return False


def played_out(owner: Any, game_type: str, *, seed: str, **create: Any) -> Game:
    """A sandbox game of ``game_type`` (``create``: player count, variant, bots, options)
    played to its end: the owner at seat 0 plays random legal actions, the server's own
    steps and bots' turns run through the services (``server_steps``)."""
    game = services.game_create(
        creator=owner, game_type=game_type, rated=False, seed=seed, **create
    )
    kind, rng = kinds.of(game), random.Random(0)
    for _ in range(3000):
        game = server_steps(game)
        if game.status != GameStatus.IN_PROGRESS:
            return game
        actions = kind.engine.legal_actions(kind.load(game.snapshot), 0)
        services.action_submit(game_id=game.pk, user=owner, action=rng.choice(actions))
    raise AssertionError(f"the {game_type} game did not end")
