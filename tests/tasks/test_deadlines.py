"""Turn deadlines: reminders at 80%, autopilot moves on expiry, handing a seat to a bot."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games import bots, deadlines, selectors, services
from games.errors import Forbidden
from games.models import (
    ActorKind,
    Event,
    Game,
    Move,
    Notification,
    NotificationKind,
    Seat,
    TurnReminder,
)
from tests.procs import BIN, Proc, service_env, wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # after-commit work runs

HOUR = 3600


def human_turn_game(users: list[Any], *, timeout: int = HOUR) -> tuple[Game, Any]:
    """A 3-player game of one person and two bots, waiting on the person (seat 0)."""
    owner = users[0]
    game = services.game_create(
        creator=owner,
        player_count=3,
        bots=[(1, "random"), (2, "random")],
        rated=False,
        seed="deadline-test",
        turn_timeout_seconds=timeout,
    )
    game.refresh_from_db()
    while game.to_act_seat != 0:  # bots ran eagerly; settle if a hand ended
        view = selectors.game_view(game=game, user=owner)
        services.hand_settle(game_id=game.pk, hand_number=view["hand_number"])
        game.refresh_from_db()
    return game, owner


def expire(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()


def test_it_sets_the_deadline_and_a_reminder_at_eighty_percent(users: list[Any]) -> None:
    game, _ = human_turn_game(users)
    reminder = TurnReminder.objects.get(game=game, version=game.version)
    assert game.turn_deadline is not None
    allowed = (game.turn_deadline - reminder.remind_at).total_seconds()
    assert allowed == pytest.approx(0.2 * HOUR, abs=5)


def test_it_reminds_the_player_once_when_the_reminder_is_due(users: list[Any]) -> None:
    game, owner = human_turn_game(users)
    later = timezone.now() + timedelta(seconds=0.85 * HOUR)
    assert deadlines.sweep(now=later).reminders == 1
    assert deadlines.sweep(now=later).reminders == 0
    reminders = Notification.objects.filter(user=owner, kind=NotificationKind.REMINDER)
    assert reminders.count() == 1
    assert [m.subject for m in mail.outbox].count(f"Reminder: your turn in game {game.pk}") == 1


def test_it_sends_no_reminder_when_the_player_moved_in_time(users: list[Any]) -> None:
    game, owner = human_turn_game(users)
    view = selectors.game_view(game=game, user=owner)
    services.action_submit(game_id=game.pk, user=owner, action=view["legal_actions"][0])
    later = timezone.now() + timedelta(seconds=0.85 * HOUR)
    deadlines.reminders_send(now=later)
    stale = TurnReminder.objects.get(game=game, version=view["version"])
    assert stale.sent_at is not None  # closed by the sweep, without a reminder:
    game.refresh_from_db()
    reminded = Notification.objects.filter(kind=NotificationKind.REMINDER)
    assert game.turn_deadline is not None
    assert [n.data["deadline"] for n in reminded] == [game.turn_deadline.isoformat()]
    assert view["turn_deadline"] != game.turn_deadline.isoformat()


def test_it_lets_the_autopilot_move_when_the_time_is_up(users: list[Any]) -> None:
    game, owner = human_turn_game(users)
    expire(game)
    before = game.move_count
    result = deadlines.sweep()
    assert result.timeouts == 1
    move = Move.objects.get(game=game, seq=before + 1)
    assert move.seat == 0
    assert move.actor_kind == ActorKind.AUTOPILOT
    assert move.bot_name == settings.AUTOPILOT_BOT == "heuristic"
    assert move.bot_version == bots.version("heuristic")
    assert Seat.objects.get(game=game, number=0).autopilot_streak == 1
    event = Event.objects.filter(game=game, type="move", payload__seq=before + 1).get()
    assert event.payload["actor"] == "autopilot"
    # The player is told (in-app, and on their account stream).
    told = Notification.objects.get(user=owner, kind=NotificationKind.AUTOPILOT_MOVE)
    assert told.game_id == game.pk
    assert told.data["seq"] == before + 1
    assert told.data["seat"] == 0
    assert told.data["action"] == move.action
    assert "ran out" in told.title
    assert Event.objects.filter(user=owner, type="autopilot_move").count() == 1


def test_it_claims_an_expired_turn_exactly_once(users: list[Any]) -> None:
    game, _ = human_turn_game(users)
    expire(game)
    version = game.version
    assert deadlines.turn_timeout_handle(game_id=game.pk, expected_version=version)
    assert not deadlines.turn_timeout_handle(game_id=game.pk, expected_version=version)
    assert Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).count() == 1


def test_it_leaves_a_turn_alone_before_its_deadline(users: list[Any]) -> None:
    game, _ = human_turn_game(users)
    assert not deadlines.turn_timeout_handle(game_id=game.pk, expected_version=game.version)
    assert deadlines.sweep().timeouts == 0


def test_it_hands_the_seat_to_the_bot_after_three_autopilot_moves(users: list[Any]) -> None:
    game, owner = human_turn_game(users)
    for _ in range(3):
        game.refresh_from_db()
        while game.to_act_seat != 0:
            assert game.status == "in_progress"
            view = selectors.game_view(game=game, user=owner)
            services.hand_settle(game_id=game.pk, hand_number=view["hand_number"])
            game.refresh_from_db()
        expire(game)
        assert deadlines.sweep().timeouts == 1
    seat = Seat.objects.get(game=game, number=0)
    assert seat.bot_kind == "heuristic"
    assert seat.player.user == owner  # the record still shows who sat there
    told = Notification.objects.get(user=owner, kind=NotificationKind.SEAT_HANDED_TO_BOT)
    assert "bot" in told.title
    assert Event.objects.filter(game=game, type="seat_handed_to_bot").count() == 1
    assert Event.objects.filter(user=owner, type="seat_handed_to_bot").count() == 1
    with pytest.raises(Forbidden, match="played by the heuristic bot"):
        services.action_submit(game_id=game.pk, user=owner, action={"type": "pass"})


def test_it_resets_the_streak_when_the_player_moves_again(users: list[Any]) -> None:
    game, owner = human_turn_game(users)
    expire(game)
    deadlines.sweep()
    game.refresh_from_db()
    while game.to_act_seat != 0:
        view = selectors.game_view(game=game, user=owner)
        services.hand_settle(game_id=game.pk, hand_number=view["hand_number"])
        game.refresh_from_db()
    view = selectors.game_view(game=game, user=owner)
    services.action_submit(game_id=game.pk, user=owner, action=view["legal_actions"][0])
    assert Seat.objects.get(game=game, number=0).autopilot_streak == 0


def test_the_management_command_sweeps_once(users: list[Any], capsys: Any) -> None:
    game, _ = human_turn_game(users)
    expire(game)
    call_command("sweep_deadlines")
    assert "timeouts=1" in capsys.readouterr().out
    assert Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).count() == 1


@pytest.mark.postgres
def test_the_sweeper_loop_handles_deadlines_as_they_expire(
    users: list[Any], tmp_path: Path
) -> None:
    """``manage.py sweep_deadlines --loop``: the embedded default's stand-in for beat."""
    game, _ = human_turn_game(users)
    sweeper = Proc(
        [str(BIN / "python"), "manage.py", "sweep_deadlines", "--loop", "--interval", "0.2"],
        service_env(CELERY_TASK_ALWAYS_EAGER="1", REDIS_URL=""),
        tmp_path / "sweeper.log",
    )
    try:
        expire(game)
        wait_until(
            lambda: "timeouts=1" in sweeper.output(), timeout=30, what="the sweeper's report"
        )
        assert sweeper.popen.poll() is None  # still looping
    finally:
        sweeper.kill()
    assert Move.objects.filter(game=game, actor_kind=ActorKind.AUTOPILOT).count() == 1
