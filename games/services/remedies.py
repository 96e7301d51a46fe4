"""Remedies staff apply to a disputed game: void it, rewind it to an earlier move, or
adjust a seat's florins. Nothing here edits history: a rewind archives the later moves, a
void marks the game and rolls back its rating changes, an adjustment is a row of its own
beside the record. Each is written under the game's lock with its ``AuditEntry`` and
told to everyone seated (docs/disputes.md).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import events, kinds, selectors
from games.errors import InvalidRequest
from games.models import (
    AuditAction,
    AuditEntry,
    FlorinAdjustment,
    GameStatus,
    HandSettlement,
    Move,
    Seat,
)
from games.services import steps, store
from games.services.disputes import (
    MAX_ADJUSTMENT,
    RemedyNotAllowed,
    audit,
    check_version,
    clean_text,
    dispute_for,
    dispute_notify,
    require_staff,
)
from games.services.ratings import ratings_roll_back


def game_void(
    *,
    game_id: int,
    staff: User,
    reason: str,
    dispute_id: int | None = None,
    expected_version: int | None = None,
) -> AuditEntry:
    """Void a running or finished game: nobody can move any more, and its rating changes
    are rolled back (see ``_ratings_roll_back`` for games rated after this one)."""
    require_staff(staff)
    reason = clean_text(reason, "reason")
    with transaction.atomic():
        # Locked: a move, a bot turn or a settlement committing meanwhile would otherwise
        # land on a game we are voiding.
        game = store.lock_game(game_id)
        dispute = dispute_for(game, dispute_id)
        check_version(game, expected_version)
        if game.status not in (GameStatus.IN_PROGRESS, GameStatus.FINISHED):
            raise RemedyNotAllowed(
                f"Game {game.pk} is {game.get_status_display().lower()}: only a running or "
                "finished game can be voided."
            )
        now = timezone.now()
        status_before = game.status
        ratings = ratings_roll_back(game, now)
        game.status = GameStatus.VOID
        game.to_act_seat = None
        game.turn_deadline = None
        game.version += 1
        game.save()
        entry = audit(
            game=game,
            dispute=dispute,
            actor=staff,
            action=AuditAction.GAME_VOID,
            reason=reason,
            details={
                "status_before": status_before,
                "version_after": game.version,
                "ratings_rolled_back": ratings,
            },
        )
        events.game_event_add(
            game=game, type="game_voided", payload={"status": game.status, "reason": reason}
        )
        dispute_notify(game=game, dispute=dispute, event="game_voided", text=reason)
    return entry


def game_rewind(
    *,
    game_id: int,
    staff: User,
    to_move: int,
    reason: str,
    dispute_id: int | None = None,
    expected_version: int | None = None,
    return_autopilot_seats: bool = False,
) -> AuditEntry:
    """Take a game back to how it was after move ``to_move`` (0: the first deal) and let
    play continue from there. Later moves and the settlements they made are archived,
    not deleted; the snapshot is rebuilt by replaying the kept moves; the version bumps,
    so commands and bot turns prepared for the old position are refused as stale.

    A finished game becomes running again and its rating changes are rolled back; it is
    rated afresh when it finishes again. ``return_autopilot_seats`` hands seats that
    timeouts gave to a bot back to their human players.
    """
    require_staff(staff)
    reason = clean_text(reason, "reason")
    with transaction.atomic():
        # Locked: the kept log, the archive marks and the new snapshot must all describe
        # one position; no move may be appended between reading and rewriting them.
        game = store.lock_game(game_id)
        dispute = dispute_for(game, dispute_id)
        check_version(game, expected_version)
        if game.status not in (GameStatus.IN_PROGRESS, GameStatus.FINISHED):
            raise RemedyNotAllowed(
                f"Game {game.pk} is {game.get_status_display().lower()}: only a running or "
                "finished game can be rewound."
            )
        if not 0 <= to_move < game.move_count:
            raise InvalidRequest(
                f"Rewind to a move between 0 and {game.move_count - 1}: the game has "
                f"{game.move_count} moves."
            )
        live = list(game.moves.filter(archived_at=None).order_by("seq"))
        kept, dropped = live[:to_move], live[to_move:]
        state = selectors.game_replay(game, selectors.replay_moves(game, kept))
        now = timezone.now()
        status_before, version_before = game.status, game.version
        ratings: list[dict[str, Any]] = []
        if game.status == GameStatus.FINISHED:
            ratings = ratings_roll_back(game, now)
            game.status = GameStatus.IN_PROGRESS
            game.finished_at = None
            game.result = None
        # The k-th ``advance`` step of the log settled hand k: settlements made by an
        # archived step are archived with it (the hand is settled again when replayed).
        settled_kept = sum(1 for m in kept if m.action.get("type") == "advance")
        settlements = HandSettlement.objects.filter(
            game=game, archived_at=None, hand_number__gt=settled_kept
        )
        archived_hands = sorted(settlements.values_list("hand_number", flat=True))
        entry = audit(
            game=game,
            dispute=dispute,
            actor=staff,
            action=AuditAction.GAME_REWIND,
            reason=reason,
            details={
                "to_move": to_move,
                "moves_archived": [m.seq for m in dropped],
                "settlements_archived": archived_hands,
                "status_before": status_before,
                "version_before": version_before,
                "ratings_rolled_back": ratings,
            },
        )
        Move.objects.filter(pk__in=[m.pk for m in dropped]).update(
            archived_at=now, archived_by=entry
        )
        settlements.update(archived_at=now)
        autopilot_returned = []
        if return_autopilot_seats:
            for seat in game.seats.select_related("player").exclude(bot_kind=""):
                if not seat.player.is_bot:
                    autopilot_returned.append(seat.number)
                    Seat.objects.filter(pk=seat.pk).update(bot_kind="", autopilot_streak=0)
        game.move_count = to_move
        game.version += 1
        store.store_state(game, state)
        game.save()
        events.game_event_add(
            game=game,
            type="game_rewound",
            payload={
                "status": game.status,
                "to_move": to_move,
                "to_act": game.to_act_seat,
                "reason": reason,
            },
        )
        # The bot turn or settlement the kept position waits for, after commit.
        steps.queue_next_step(game, state)
        text = f"{reason} (The game continues from move {to_move}.)"
        if autopilot_returned:
            text += f" Seats {', '.join(map(str, autopilot_returned))} are played by people again."
        dispute_notify(game=game, dispute=dispute, event="game_rewound", text=text)
    return entry


def florins_adjust(
    *,
    game_id: int,
    staff: User,
    seat: int,
    amount: int,
    reason: str,
    dispute_id: int | None = None,
) -> FlorinAdjustment:
    """Record florins given to (positive) or taken from (negative) a seat of a finished
    game. The record of play stays as it was; the totals shown and exported add it."""
    require_staff(staff)
    reason = clean_text(reason, "reason")
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise InvalidRequest(
            f"amount must be a whole number of florins, not 0, at most {MAX_ADJUSTMENT} either way."
        )
    with transaction.atomic():
        # Locked so the status checked is the status the adjustment is recorded against.
        game = store.lock_game(game_id)
        dispute = dispute_for(game, dispute_id)
        if not kinds.of(game).score_adjustments:
            raise RemedyNotAllowed(
                f"Game {game.pk} is a game of {kinds.of(game).meta.title}, whose scores are "
                "recomputed from its record: rewind or void it instead."
            )
        if game.status != GameStatus.FINISHED:
            raise RemedyNotAllowed(
                f"Game {game.pk} is {game.get_status_display().lower()}: florins are adjusted "
                "on finished games only (rewind a running game instead)."
            )
        if not 0 <= seat < game.player_count:
            raise InvalidRequest(f"There is no seat {seat} at this {game.player_count}-seat table.")
        entry = audit(
            game=game,
            dispute=dispute,
            actor=staff,
            action=AuditAction.FLORINS_ADJUST,
            reason=reason,
            details={"seat": seat, "amount": amount},
        )
        adjustment = FlorinAdjustment.objects.create(
            game=game, seat=seat, amount=amount, reason=reason, audit_entry=entry
        )
        # The view's totals change, so the version bumps like any other change a player sees.
        game.version += 1
        game.save(update_fields=["version", "updated_at"])
        events.game_event_add(
            game=game,
            type="florins_adjusted",
            payload={"seat": seat, "amount": amount, "reason": reason},
        )
        dispute_notify(
            game=game,
            dispute=dispute,
            event="florins_adjusted",
            text=f"Seat {seat}: {amount:+d} florins. {reason}",
        )
    return adjustment
