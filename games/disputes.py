"""Dispute review: a dispute's lifecycle and the remedies staff apply to a disputed game.

Writers only, in the discipline of ``games.services``: lock the game row, check, apply,
append an ``AuditEntry`` (who, when, what, why), and announce after commit. Nothing here
edits history: a rewind archives the later moves, a void marks the game and rolls back
its rating changes, an adjustment is a row of its own beside the record. docs/disputes.md
describes the lifecycle and every remedy.

Lock order is always game, then dispute, then ratings (as in ``services._ratings_update``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from games import events, notifications, selectors, services
from games.errors import (
    Forbidden,
    GameNotFinished,
    InvalidRequest,
    NotFound,
    ServiceError,
    VersionConflict,
)
from games.models import (
    AuditAction,
    AuditEntry,
    Dispute,
    DisputeStatus,
    FlorinAdjustment,
    Game,
    GameStatus,
    HandSettlement,
    Move,
    NotificationKind,
    Rating,
    RatingChange,
    Seat,
)

MAX_TEXT = 4000
MAX_ADJUSTMENT = 10_000
RESOLVED = frozenset({DisputeStatus.UPHELD, DisputeStatus.DISMISSED})
ACTIVE = frozenset({DisputeStatus.OPEN, DisputeStatus.UNDER_REVIEW})


class DisputeStateError(ServiceError):
    code, status = "dispute_state", 409


class RemedyNotAllowed(ServiceError):
    code, status = "remedy_not_allowed", 409


# --- the dispute's lifecycle: open -> under_review -> upheld | dismissed ------------------


def dispute_review_start(*, dispute_id: int, staff: User, note: str = "") -> Dispute:
    """Take an open dispute up for review (open -> under_review)."""
    _require_staff(staff)
    note = _text(note, "note", required=False)
    with transaction.atomic():
        game, dispute = _lock_dispute(dispute_id)
        if dispute.status != DisputeStatus.OPEN:
            raise DisputeStateError(
                f"Dispute {dispute.pk} is {dispute.get_status_display().lower()}, not open: "
                "only an open dispute can be taken up for review."
            )
        dispute.status = DisputeStatus.UNDER_REVIEW
        dispute.reviewer = staff
        dispute.save(update_fields=["status", "reviewer", "updated_at"])
        _audit(
            game=game,
            dispute=dispute,
            actor=staff,
            action=AuditAction.DISPUTE_REVIEW,
            reason=note or "Taken up for review.",
        )
        dispute_notify(game=game, dispute=dispute, event="under_review")
    return dispute


def dispute_dismiss(*, dispute_id: int, staff: User, resolution: str) -> Dispute:
    """Resolve a dispute under review as dismissed, with a written resolution."""
    return _dispute_resolve(
        dispute_id=dispute_id,
        staff=staff,
        resolution=resolution,
        status=DisputeStatus.DISMISSED,
        action=AuditAction.DISPUTE_DISMISS,
    )


def dispute_uphold(*, dispute_id: int, staff: User, resolution: str) -> Dispute:
    """Resolve a dispute under review as upheld, with a written resolution (the remedies
    applied, if any, are audit entries of their own)."""
    return _dispute_resolve(
        dispute_id=dispute_id,
        staff=staff,
        resolution=resolution,
        status=DisputeStatus.UPHELD,
        action=AuditAction.DISPUTE_UPHOLD,
    )


def _dispute_resolve(
    *, dispute_id: int, staff: User, resolution: str, status: str, action: str
) -> Dispute:
    _require_staff(staff)
    resolution = _text(resolution, "resolution")
    with transaction.atomic():
        game, dispute = _lock_dispute(dispute_id)
        if dispute.status != DisputeStatus.UNDER_REVIEW:
            raise DisputeStateError(
                f"Dispute {dispute.pk} is {dispute.get_status_display().lower()}: only a "
                "dispute under review can be resolved (take it up for review first)."
            )
        dispute.status = status
        dispute.resolution = resolution
        dispute.resolved_at = timezone.now()
        if dispute.reviewer_id is None:
            dispute.reviewer = staff
        dispute.save(
            update_fields=["status", "resolution", "resolved_at", "reviewer", "updated_at"]
        )
        _audit(game=game, dispute=dispute, actor=staff, action=action, reason=resolution)
        dispute_notify(game=game, dispute=dispute, event=status)
    return dispute


# --- remedies -----------------------------------------------------------------------------


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
    _require_staff(staff)
    reason = _text(reason, "reason")
    with transaction.atomic():
        # Locked: a move, a bot turn or a settlement committing meanwhile would otherwise
        # land on a game we are voiding.
        game = services._lock_game(game_id)
        dispute = _dispute_for(game, dispute_id)
        _check_version(game, expected_version)
        if game.status not in (GameStatus.IN_PROGRESS, GameStatus.FINISHED):
            raise RemedyNotAllowed(
                f"Game {game.pk} is {game.get_status_display().lower()}: only a running or "
                "finished game can be voided."
            )
        now = timezone.now()
        status_before = game.status
        ratings = _ratings_roll_back(game, now)
        game.status = GameStatus.VOID
        game.to_act_seat = None
        game.turn_deadline = None
        game.version += 1
        game.save()
        entry = _audit(
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
    _require_staff(staff)
    reason = _text(reason, "reason")
    with transaction.atomic():
        # Locked: the kept log, the archive marks and the new snapshot must all describe
        # one position; no move may be appended between reading and rewriting them.
        game = services._lock_game(game_id)
        dispute = _dispute_for(game, dispute_id)
        _check_version(game, expected_version)
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
        state = selectors.record_replay(
            player_count=game.player_count,
            variant=game.variant,
            seed=game.seed,
            moves=[{"seat": m.seat, "action": m.action} for m in kept],
        )
        now = timezone.now()
        status_before, version_before = game.status, game.version
        ratings: list[dict[str, Any]] = []
        if game.status == GameStatus.FINISHED:
            ratings = _ratings_roll_back(game, now)
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
        entry = _audit(
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
        services._store_state(game, state)
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
        services._queue_next_step(game, state)
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
    _require_staff(staff)
    reason = _text(reason, "reason")
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise InvalidRequest(
            f"amount must be a whole number of florins, not 0, at most {MAX_ADJUSTMENT} either way."
        )
    with transaction.atomic():
        # Locked so the status checked is the status the adjustment is recorded against.
        game = services._lock_game(game_id)
        dispute = _dispute_for(game, dispute_id)
        if game.status != GameStatus.FINISHED:
            raise RemedyNotAllowed(
                f"Game {game.pk} is {game.get_status_display().lower()}: florins are adjusted "
                "on finished games only (rewind a running game instead)."
            )
        if not 0 <= seat < game.player_count:
            raise InvalidRequest(f"There is no seat {seat} at this {game.player_count}-seat table.")
        entry = _audit(
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


def _ratings_roll_back(game: Game, now: Any) -> list[dict[str, Any]]:
    """Undo the game's rating changes still in force; called under the game's lock.

    A rating that no later rated game has changed gets exactly its ``mu_before`` and
    ``sigma_before`` back. When a later game changed it too, those later games are not
    re-rated (that would cascade through every opponent since); instead this game's own
    change is subtracted (mu and sigma each move back by their delta), which keeps the
    later games' effect. Each change is marked ``rolled_back_at``.
    """
    changes = list(
        RatingChange.objects.filter(game=game, rolled_back_at=None)
        .select_related("rating")
        .order_by("rating_id")
    )
    if not changes:
        return []
    ratings = {
        r.pk: r
        # Locked: another game finishing now may be rating the same players.
        for r in Rating.objects.select_for_update()
        .filter(pk__in=[c.rating_id for c in changes])
        .order_by("pk")
    }
    done = []
    for change in changes:
        rating = ratings[change.rating_id]
        later = (
            RatingChange.objects.filter(rating=rating, rolled_back_at=None, pk__gt=change.pk)
            .exclude(game=game)
            .exists()
        )
        before = {"mu": rating.mu, "sigma": rating.sigma}
        if later:
            rating.mu -= change.mu_after - change.mu_before
            rating.sigma = max(rating.sigma - (change.sigma_after - change.sigma_before), 1e-6)
        else:
            rating.mu, rating.sigma = change.mu_before, change.sigma_before
        rating.games = max(rating.games - 1, 0)
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingChange.objects.filter(pk=change.pk).update(rolled_back_at=now)
        done.append(
            {
                "rating": rating.pk,
                "player": rating.player_id,
                "method": "delta" if later else "exact",
                "before": before,
                "after": {"mu": rating.mu, "sigma": rating.sigma},
            }
        )
    return done


# --- notifications ------------------------------------------------------------------------

HEADLINES = {
    "opened": "a dispute was opened",
    "under_review": "the dispute is under review",
    DisputeStatus.UPHELD: "the dispute was upheld",
    DisputeStatus.DISMISSED: "the dispute was dismissed",
    "game_voided": "the game was voided",
    "game_rewound": "the game was rewound",
    "florins_adjusted": "florins were adjusted",
}


def dispute_notify(
    *, game: Game, event: str, dispute: Dispute | None = None, text: str = ""
) -> int:
    """Tell every person seated at the game (not the built-in bots) what happened, as a
    ``dispute_update`` notification: in-app, account stream, webhooks, and email after
    commit (``games.notifications``). Call inside the transaction that made the change,
    under the game's lock. Returns how many people were told."""
    headline = HEADLINES[event]
    lines = [f"Game {game.pk}: {headline}."]
    if dispute is not None:
        lines.append(f"Dispute {dispute.pk} ({dispute.get_status_display()}): {dispute.reason}")
        if dispute.resolution:
            lines.append(f"Resolution: {dispute.resolution}")
    if text:
        lines.append(text)
    people = sorted(
        {
            seat.player.user_id
            for seat in game.seats.select_related("player")
            if not seat.player.is_bot
        }
    )
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=user_id,
                kind=NotificationKind.DISPUTE_UPDATE,
                title=f"Game {game.pk}: {headline}",
                body="\n\n".join(lines),
                game=game,
                data={
                    "event": event,
                    "dispute": dispute.pk if dispute is not None else None,
                    "status": dispute.status if dispute is not None else None,
                },
            )
            for user_id in people
        ]
    )
    return len(people)


# --- helpers ------------------------------------------------------------------------------


def running_record_open(*, game: Game, user: User | AnonymousUser, via: str) -> Dispute:
    """Let staff read the full record (every hand, the seed) of a game still being played:
    only inside an active dispute case on it, never at a game they sit at, and each read
    in the audit log (issue 26). Anyone else waits for the game to end."""
    if not (user.is_authenticated and getattr(user, "is_staff", False)):
        raise GameNotFinished("The full record is published when the game has finished.")
    assert isinstance(user, User)
    if game.seats.filter(player__user=user).exists():
        raise Forbidden(
            "You sit at this game: its full record stays closed to you until it has finished."
        )
    dispute = game.disputes.filter(status__in=ACTIVE).order_by("created_at", "pk").first()
    if dispute is None:
        raise GameNotFinished(
            "The full record of a game still being played is open to staff only inside a "
            "dispute case on it; this game has no open dispute."
        )
    _audit(
        game=game,
        dispute=dispute,
        actor=user,
        action=AuditAction.RECORD_READ,
        reason=f"Full record read ({via}) while the game is {game.status}.",
        details={"version": game.version, "via": via},
    )
    return dispute


def _require_staff(user: User | AnonymousUser) -> None:
    if not (user.is_authenticated and getattr(user, "is_staff", False)):
        raise Forbidden("Only staff can review disputes and apply remedies.")


def _text(value: str, name: str, *, required: bool = True) -> str:
    value = (value or "").strip()
    if required and not value:
        raise InvalidRequest(f"Write the {name}: it is kept in the audit log and may not be empty.")
    if len(value) > MAX_TEXT:
        raise InvalidRequest(f"The {name} may be at most {MAX_TEXT} characters long.")
    return value


def _lock_dispute(dispute_id: int) -> tuple[Game, Dispute]:
    game_id = Dispute.objects.filter(pk=dispute_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"There is no dispute {dispute_id}.")
    # Locked: the game first (the order every writer takes), then the dispute, so a status
    # change and a remedy on the same case are serialised.
    game = services._lock_game(game_id)
    dispute = Dispute.objects.select_for_update().get(pk=dispute_id)
    return game, dispute


def _dispute_for(game: Game, dispute_id: int | None) -> Dispute | None:
    """The dispute a remedy answers (locked, under review, of this game), if one is named."""
    if dispute_id is None:
        return None
    dispute = Dispute.objects.select_for_update().filter(pk=dispute_id, game=game).first()
    if dispute is None:
        raise NotFound(f"Game {game.pk} has no dispute {dispute_id}.")
    if dispute.status != DisputeStatus.UNDER_REVIEW:
        raise DisputeStateError(
            f"Dispute {dispute.pk} is {dispute.get_status_display().lower()}: remedies are "
            "applied while a dispute is under review."
        )
    return dispute


def _check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(
            f"The game is at version {game.version}, not {expected_version}: it changed "
            "since you looked. Reload the case file and decide again."
        )


def _audit(
    *,
    game: Game,
    actor: User,
    action: str,
    reason: str,
    dispute: Dispute | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        game=game, dispute=dispute, actor=actor, action=action, reason=reason, details=details or {}
    )
