"""Turn deadlines, database-driven (like lichess): a periodic sweep over the indexed
``Game.turn_deadline`` and ``TurnReminder.remind_at`` columns.

* At 80% of the time allowed the player is reminded, once.
* When the time is up the autopilot (``settings.AUTOPILOT_BOT``) makes that seat's move,
  logged with ``actor_kind="autopilot"`` and the bot's name and version. After
  ``AUTOPILOT_HANDOVER_AFTER`` (3) autopilot moves in a row, the seat is handed to that
  bot for the rest of the game and the player is told. Every autopilot move is told to
  the player too (an ``autopilot_move`` notification: in-app, stream, webhooks).

Every due item is claimed with a conditional UPDATE that must change exactly one row
(healthchecks' ``sendalerts``), inside the transaction that acts on it: two sweepers never
handle one deadline twice, and a sweeper that dies mid-way leaves the claim rolled back
for the next sweep.

The sweep also re-queues work whose message was lost (a worker killed between a commit
and its queueing of the next step): bot turns and settlements of games that have not
moved for ``STALLED_GAME_SECONDS``, due webhook retries, held emails whose quiet hours
are over, pending emails whose message was lost and ``sending`` claims left by a worker
that died mid-send (``notifications.emails_requeue``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import announce, jobs, notifications, services, webhooks
from games.models import Game, GameStatus, Seat, TurnReminder
from games.services import steps


@dataclass
class SweepResult:
    reminders: int = 0
    timeouts: int = 0
    emails_released: int = 0
    emails_requeued: int = 0
    emails_failed: int = 0
    webhook_retries: int = 0
    stalled_kicked: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def sweep(*, now: datetime | None = None, limit: int = 100) -> SweepResult:
    """One pass over everything that is due. Safe to run from several places at once."""
    now = now or timezone.now()
    result = SweepResult()
    result.reminders = reminders_send(now=now, limit=limit)
    due = list(
        Game.objects.filter(status=GameStatus.IN_PROGRESS, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "version")[:limit]
    )
    for game_id, version in due:
        if turn_timeout_handle(game_id=game_id, expected_version=version, now=now):
            result.timeouts += 1
    emails = notifications.emails_requeue(now=now, limit=limit)
    result.emails_released = emails["released"]
    result.emails_requeued = emails["stale"] + emails["requeued"]
    result.emails_failed = emails["failed"]
    for delivery_id in webhooks.deliveries_due(now=now, limit=limit):
        jobs.enqueue_on_commit("games.webhook_deliver", delivery_id)
        result.webhook_retries += 1
    result.stalled_kicked = stalled_games_kick(now=now, limit=limit)
    return result


def turn_timeout_handle(
    *, game_id: int, expected_version: int, now: datetime | None = None
) -> bool:
    """Make the autopilot's move for the seat whose time ran out (``games.services.
    timeouts``). Returns False (and changes nothing) when the game moved on or another
    sweeper claimed it first."""
    return services.turn_timeout_handle(game_id=game_id, expected_version=expected_version, now=now)


def reminders_send(*, now: datetime | None = None, limit: int = 100) -> int:
    """Send the reminders that are due (each once); stale ones are closed silently."""
    now = now or timezone.now()
    due = list(
        TurnReminder.objects.filter(sent_at__isnull=True, remind_at__lte=now)
        .order_by("remind_at")
        .values_list("pk", flat=True)[:limit]
    )
    sent = 0
    for reminder_id in due:
        with transaction.atomic():
            # Claim: only the sweeper whose UPDATE marks it sent reminds the player.
            if not TurnReminder.objects.filter(pk=reminder_id, sent_at__isnull=True).update(
                sent_at=now
            ):
                continue
            reminder = TurnReminder.objects.select_related("game").get(pk=reminder_id)
            game = reminder.game
            if game.version != reminder.version or game.status != GameStatus.IN_PROGRESS:
                continue  # the player moved (or the game ended) in time
            seat = Seat.objects.select_related("player__user").get(game=game, number=reminder.seat)
            if seat.bot_kind:
                continue
            announce.turn_reminder_send(game=game, seat=seat)
            sent += 1
    return sent


def stalled_games_kick(*, now: datetime | None = None, limit: int = 100) -> int:
    """Re-queue the bot turn or settlement of games waiting on the server for too long.

    Normally each step queues the next after commit; if a worker died between the two,
    nothing would. The tasks are idempotent (stale versions and settled hands do nothing),
    so a spare kick is harmless."""

    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.STALLED_GAME_SECONDS)
    bot_to_act = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("to_act_seat")).exclude(
        bot_kind=""
    )
    stalled = Game.objects.filter(status=GameStatus.IN_PROGRESS, updated_at__lt=cutoff).filter(
        Q(to_act_seat__isnull=True) | Exists(bot_to_act)
    )
    kicked = 0
    for game in stalled.order_by("updated_at")[:limit]:
        steps.next_step_queue(game)
        kicked += 1
    return kicked


def next_step_kick(*, game_id: int) -> bool:
    """Queue the game's next server step (bot turn or settlement) if it waits on one.

    For a task that Redis redelivered and that found its own step already done: the
    worker that died may have committed that step without queueing the next one."""
    bot_to_act = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("to_act_seat")).exclude(
        bot_kind=""
    )
    game = (
        Game.objects.filter(pk=game_id, status=GameStatus.IN_PROGRESS)
        .filter(Q(to_act_seat__isnull=True) | Exists(bot_to_act))
        .first()
    )
    if game is None:
        return False
    steps.next_step_queue(game)
    return True
