"""Migrations that change how stored data is kept must keep every value readable."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import engine.indulgence as rules
from games.models import Game, GameHistory, IdempotencyRecord

BEFORE = [("games", "0009_fewer_write_indexes")]


def _migrate(targets: list[tuple[str, str]] | None = None) -> Any:
    """Migrate to ``targets`` (default: the latest state, which the models describe)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_documents_stored_as_jsonb_read_back_the_same_as_text(owner: Any) -> None:
    # A real snapshot (the suite replays every game after each test and compares).
    snapshot = rules.play_snapshot(rules.new_game(3, "basic", "migrated"))
    answer = {"id": 1, "seats": [{"username": "ファン", "florins": -3}], "to_act": None}
    hands = [{"hand_number": 1, "payments": [[0, 1, 5, "sin"]]}]
    old = _migrate(BEFORE)
    try:
        game = old.get_model("games", "Game").objects.create(
            player_count=3,
            seed="migrated",
            seed_commitment="c",
            created_by_id=owner.pk,
            status="in_progress",
            snapshot=snapshot,
        )
        old.get_model("games", "GameHistory").objects.create(game_id=game.pk, hands=hands)
        old.get_model("games", "IdempotencyRecord").objects.create(
            user_id=owner.pk, key="k", game_id=game.pk, request_hash="h", response=answer
        )
    finally:
        _migrate()
    assert Game.objects.get(pk=game.pk).snapshot == snapshot
    assert GameHistory.objects.get(game_id=game.pk).hands == hands
    assert IdempotencyRecord.objects.get(key="k").response == answer
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT data_type FROM information_schema.columns "
                "WHERE table_name = 'games_game' AND column_name = 'snapshot'"
            )
            assert cursor.fetchone()[0] == "text"
