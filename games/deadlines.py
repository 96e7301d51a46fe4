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

import random
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

import engine.indulgence as rules
from games import announce, bots, notifications, services, webhooks
from games.models import ActorKind, Game, GameStatus, NotificationKind, Seat, TurnReminder


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
    from games import tasks

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
        tasks.enqueue_on_commit(tasks.webhook_deliver, delivery_id)
        result.webhook_retries += 1
    result.stalled_kicked = stalled_games_kick(now=now, limit=limit)
    return result


def turn_timeout_handle(
    *, game_id: int, expected_version: int, now: datetime | None = None
) -> bool:
    """Make the autopilot's move for the seat whose time ran out. Returns False (and
    changes nothing) when the game moved on or another sweeper claimed it first."""
    now = now or timezone.now()
    with transaction.atomic():
        # Claim: the conditional UPDATE changes the row only while this exact turn is
        # still due, and holds the row lock until commit, so exactly one caller proceeds.
        claimed = Game.objects.filter(
            pk=game_id,
            version=expected_version,
            status=GameStatus.IN_PROGRESS,
            turn_deadline__lte=now,
        ).update(turn_deadline=None)
        if claimed != 1:
            return False
        game = services._lock_game(game_id)  # already locked by the UPDATE above
        state = services._load_state(game)
        number = rules.to_act(state)
        if number is None:
            return False  # a settlement is due, not a player (no deadline then anyway)
        seat = Seat.objects.select_related("player__user").get(game=game, number=number)
        kind = seat.bot_kind or settings.AUTOPILOT_BOT
        # The autopilot sees only the seat's view, like any bot.
        rng = random.Random(services._derive_int(game.seed, f"autopilot:{game.move_count}"))
        action = bots.choose(kind, rules.view(state, number), rng)
        new_state = services._apply(state, number, action)
        move = services._append_move(
            game,
            seat=number,
            action=action,
            actor_kind=ActorKind.BOT if seat.bot_kind else ActorKind.AUTOPILOT,
            bot_name=kind,
            bot_version=bots.version(kind),
        )
        handed = False
        if not seat.bot_kind:
            seat.autopilot_streak += 1
            if seat.autopilot_streak >= settings.AUTOPILOT_HANDOVER_AFTER:
                seat.bot_kind = kind
                handed = True
            seat.save(update_fields=["autopilot_streak", "bot_kind"])
        services._store_state(game, new_state)
        game.save()
        services._schedule_next_step(game, new_state, move=move)
        if not seat.bot_kind or handed:
            _autopilot_moved_notify(game=game, seat=seat, action=action, bot=kind)
        if handed:
            announce.seat_handed_to_bot(game=game, seat=seat)
    return True


def _autopilot_moved_notify(*, game: Game, seat: Seat, action: dict[str, Any], bot: str) -> None:
    """Tell the player (only them: the action may name a card of their hand) that their
    time ran out and the autopilot moved for them."""
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.AUTOPILOT_MOVE,
                title=f"Time ran out in game {game.pk}: the {bot} bot moved for you",
                body=(
                    f"Your time to move in game {game.pk} ran out, so the {bot} bot made "
                    f"move {game.move_count} for seat {seat.number}. After "
                    f"{settings.AUTOPILOT_HANDOVER_AFTER} such moves in a row it takes the "
                    "seat over."
                ),
                game=game,
                data={
                    "seat": seat.number,
                    "seq": game.move_count,
                    "action": action,
                    "streak": seat.autopilot_streak,
                },
            )
        ]
    )


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
        _next_step_queue(game)
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
    _next_step_queue(game)
    return True


def _next_step_queue(game: Game) -> None:
    from games import tasks

    if game.to_act_seat is None:
        state = services._load_state(game)
        hand = int(rules.view(state, None)["hand_number"])
        tasks.enqueue_on_commit(tasks.hand_settle, game.pk, hand)
    else:
        tasks.enqueue_on_commit(tasks.bot_turn, game.pk, game.version)
