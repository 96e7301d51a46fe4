"""An expired deadline handled by the real background machinery: Celery beat queues the
sweep, a real worker process runs it, the autopilot moves and the player is told."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import ActorKind, Event, Game, GameStatus, Move, Notification, NotificationKind
from tests.procs import BIN, Proc, Worker, service_env, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_beat_and_a_real_worker_move_for_a_player_whose_time_ran_out(
    start_worker: Callable[..., Worker], users: list[Any], tmp_path: Path
) -> None:
    owner = users[0]
    start_worker()
    game = services.game_create(
        creator=owner,
        player_count=3,
        bots=[(1, "random"), (2, "random")],
        rated=False,
        seed="worker-deadline",
        turn_timeout_seconds=3600,
    )

    def owner_to_act() -> bool:  # the bots (and settlements) run in the worker
        game.refresh_from_db()
        return game.status == GameStatus.IN_PROGRESS and game.to_act_seat == 0

    wait_until(owner_to_act, timeout=60, what="the owner's turn")
    before = game.move_count
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert not Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).exists()
    beat = Proc(
        [
            str(BIN / "celery"),
            "-A",
            "indulgence_site",
            "beat",
            "--loglevel",
            "WARNING",
            "-s",
            str(tmp_path / "beat-schedule"),
        ],
        service_env(DEADLINE_SWEEP_SECONDS="0.5"),
        tmp_path / "beat.log",
    )
    try:
        told = wait_until(
            lambda: Notification.objects.filter(
                user=owner, kind=NotificationKind.AUTOPILOT_MOVE
            ).first(),
            timeout=60,
            what="the autopilot's notification",
            every=0.25,
        )
    finally:
        beat.kill()
    move = Move.objects.get(game=game, seq=before + 1)
    assert move.seat == 0
    assert move.actor_kind == ActorKind.AUTOPILOT
    assert move.bot_name == "heuristic"
    assert told.game_id == game.pk
    assert told.data["seq"] == before + 1
    assert Event.objects.filter(user=owner, type="autopilot_move").count() == 1
    assert Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).count() == 1
