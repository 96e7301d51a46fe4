"""The suite-wide check (tests/conftest.py ``pytest_runtest_call``) that every game's
snapshot equals a replay of its seed and live move log: it must be able to fail, and
it must look at every game in the database, not only the one a test is about."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

import engine.indulgence as rules
from games import services
from games.models import Game, Move
from tests.conftest import _uses_database
from tests.helpers import game_with_seed, play_humans_until, snapshot_mismatches

pytestmark = pytest.mark.django_db


def _table(owner: Any, opponent: Any, third: Any, seed: str) -> Game:
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed=seed)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def test_it_finds_nothing_wrong_with_games_played_through_the_services(
    owner: Any, opponent: Any, third: Any
) -> None:
    game = _table(owner, opponent, third, "check-a")
    play_humans_until(game, {0: owner, 1: opponent, 2: third})
    services.game_create(creator=owner, player_count=4)  # open: no snapshot yet
    assert snapshot_mismatches() == []


def test_it_notices_a_snapshot_that_is_not_the_replay_of_any_game(
    owner: Any, opponent: Any, third: Any
) -> None:
    first = _table(owner, opponent, third, "check-b")
    second = _table(owner, opponent, third, "check-c")
    # The second game's snapshot is replaced by another deal: same shape, other cards.
    other = rules.state_to_json(rules.new_game(3, "basic", "another seed"))
    assert other != second.snapshot
    Game.objects.filter(pk=second.pk).update(snapshot=other)

    assert snapshot_mismatches() == [f"game {second.pk} (0 moves)"]

    Game.objects.filter(pk=second.pk).update(snapshot=second.snapshot)  # let the hook pass
    assert first.pk != second.pk


def test_it_notices_a_move_missing_from_the_log(owner: Any, opponent: Any, third: Any) -> None:
    game = play_humans_until(
        _table(owner, opponent, third, "check-d"), {0: owner, 1: opponent, 2: third}
    )
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None
    moves = Move.objects.filter(game=game).count()
    Move.objects.filter(pk=last.pk).delete()

    assert snapshot_mismatches() == [f"game {game.pk} ({moves - 1} moves)"]

    Move.objects.create(**{f.attname: getattr(last, f.attname) for f in Move._meta.concrete_fields})


@pytest.mark.parametrize(
    ("marker", "fixtures", "expected"),
    [
        (True, set(), True),
        (False, {"db"}, True),
        (False, {"transactional_db"}, True),
        (False, {"live_server"}, True),
        (False, {"settings"}, False),
    ],
)
def test_it_runs_after_every_test_that_can_touch_the_database(
    marker: bool, fixtures: set[str], expected: bool
) -> None:
    item: Any = type(
        "Item",
        (),
        {
            "fixturenames": fixtures,
            "get_closest_marker": lambda self, name: object() if marker else None,
        },
    )()
    assert _uses_database(item) is expected


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_reads_one_consistent_snapshot_outside_a_transaction(
    owner: Any, opponent: Any, third: Any
) -> None:
    game = _table(owner, opponent, third, "check-e")
    assert not connection.in_atomic_block
    assert snapshot_mismatches() == []
    other = rules.state_to_json(rules.new_game(3, "basic", "yet another seed"))
    Game.objects.filter(pk=game.pk).update(snapshot=other)
    assert snapshot_mismatches() == [f"game {game.pk} (0 moves)"]
    Game.objects.filter(pk=game.pk).update(snapshot=game.snapshot)
