"""A turn whose time ran out: the game's own default where it has one (New Eleusis' NE-27:
a library rule for a dealer who set none, a rated prophet's missed call, ...), logged
with ``actor_kind="timeout"``; otherwise the autopilot (the game's: Indulgence's
``settings.AUTOPILOT_BOT``, New Eleusis' novice bot) makes that seat's move, logged with
``actor_kind="autopilot"`` and the bot's name and version. After
``AUTOPILOT_HANDOVER_AFTER`` (3) autopilot moves in a row, the seat is handed to that bot
for the rest of the game and the player is told. Every autopilot move is told to the
player too (an ``autopilot_move`` notification: in-app, stream, webhooks).

``games.deadlines`` finds the turns that are due; this module acts on one of them.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import announce, bots, kinds, notifications
from games.models import ActorKind, Game, GameStatus, NotificationKind, Seat
from games.services import moves, steps, store


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
        game = store.lock_game(game_id)  # already locked by the UPDATE above
        game_kind = kinds.of(game)
        state = store.load_state(game)
        number = game_kind.engine.to_act(state)
        if number is None:
            return False  # an automatic step is due, not a player (no deadline then anyway)
        seat = Seat.objects.select_related("player__user").get(game=game, number=number)
        kind = seat.bot_kind or game_kind.autopilot_bot()
        default = game_kind.timeout_action(state)
        by: str | None
        if default is not None:
            action, actor, by, bot_name, bot_version = default, ActorKind.TIMEOUT, "timeout", "", ""
        else:
            # The autopilot sees only the seat's view, like any bot.
            rng = random.Random(store.derive_int(game.seed, f"autopilot:{game.move_count}"))
            view = game_kind.engine.view(state, number)
            action = bots.choose(kind, view, rng, game_type=game.game_type)
            actor = ActorKind.BOT if seat.bot_kind else ActorKind.AUTOPILOT
            by = None if seat.player.is_bot else "autopilot"
            bot_name, bot_version = kind, bots.version(kind, game_type=game.game_type)
        new_state = moves.apply_action(game_kind, state, number, action, by=by)
        move = store.append_move(
            game,
            seat=number,
            action=action,
            actor_kind=actor,
            bot_name=bot_name,
            bot_version=bot_version,
        )
        handed = False
        if not seat.bot_kind:
            seat.autopilot_streak += 1
            if seat.autopilot_streak >= settings.AUTOPILOT_HANDOVER_AFTER:
                seat.bot_kind = kind
                handed = True
            seat.save(update_fields=["autopilot_streak", "bot_kind"])
        store.store_state(game, new_state)
        game.save()
        steps.schedule_next_step(game, new_state, move=move, previous=state)
        if not seat.bot_kind or handed:
            _autopilot_moved_notify(
                game=game, seat=seat, action=action, bot=kind, by_default=default is not None
            )
        if handed:
            announce.seat_handed_to_bot(game=game, seat=seat)
    return True


def _autopilot_moved_notify(
    *, game: Game, seat: Seat, action: dict[str, Any], bot: str, by_default: bool = False
) -> None:
    """Tell the player (only them: the action may name a card of their hand) that their
    time ran out and the autopilot (or the game's own default) moved for them."""
    who = "the game's default" if by_default else f"the {bot} bot"
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=seat.player.user_id,
                kind=NotificationKind.AUTOPILOT_MOVE,
                title=f"Time ran out in game {game.pk}: {who} moved for you",
                body=(
                    f"Your time to move in game {game.pk} ran out, so {who} made "
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
