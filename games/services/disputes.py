"""Disputes: a seated player opens one; staff take it up for review and resolve it
(open -> under_review -> upheld | dismissed); everyone seated is told at each step. The
remedies staff apply to a disputed game are in ``games.services.remedies``; both follow
the writers' discipline: lock the game row, check, apply, append an ``AuditEntry`` (who,
when, what, why), and announce after commit. docs/disputes.md describes the lifecycle.

Lock order is always game, then dispute, then ratings (as in ``ratings.ratings_update``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import notifications
from games.errors import (
    DisputeNotAllowed,
    Forbidden,
    GameNotFinished,
    InvalidRequest,
    NotFound,
    NotSeated,
    ServiceError,
    VersionConflict,
)
from games.models import (
    AuditAction,
    AuditEntry,
    Dispute,
    DisputeStatus,
    Game,
    GameStatus,
    NotificationKind,
)
from games.services import store

DISPUTE_WINDOW = timedelta(days=7)
MAX_DISPUTE_REASON = 4000
MAX_TEXT = 4000
MAX_ADJUSTMENT = 10_000
RESOLVED = frozenset({DisputeStatus.UPHELD, DisputeStatus.DISMISSED})
ACTIVE = frozenset({DisputeStatus.OPEN, DisputeStatus.UNDER_REVIEW})


class DisputeStateError(ServiceError):
    code, status = "dispute_state", 409


class RemedyNotAllowed(ServiceError):
    code, status = "remedy_not_allowed", 409


# --- opening a dispute --------------------------------------------------------------------


def dispute_create(*, game_id: int, user: User, reason: str) -> Dispute:
    reason = reason.strip()
    if not reason:
        raise InvalidRequest(_("Say what went wrong: the reason may not be empty."))
    if len(reason) > MAX_DISPUTE_REASON:
        raise InvalidRequest(
            _("The reason may be at most %(max)d characters long.") % {"max": MAX_DISPUTE_REASON}
        )
    with transaction.atomic():
        game = store.lock_game(game_id)  # Locked so the status read is the one we act on.
        people = Q(bot_kind="") | Q(player__bot_kind="")  # not a bot account's seat
        if not game.seats.filter(people, player__user=user).exists():
            raise NotSeated(_("Only players seated at this game can dispute it."))
        if game.status == GameStatus.FINISHED:
            assert game.finished_at is not None
            if timezone.now() - game.finished_at > DISPUTE_WINDOW:
                raise DisputeNotAllowed(_("Games can be disputed up to 7 days after they end."))
        elif game.status != GameStatus.IN_PROGRESS:
            raise DisputeNotAllowed(
                _("A %(status)s game cannot be disputed.")
                % {"status": game.get_status_display().lower()}
            )
        dispute = Dispute.objects.create(game=game, opened_by=user, reason=reason)

        dispute_notify(game=game, dispute=dispute, event="opened")
    return dispute


# --- the dispute's lifecycle: open -> under_review -> upheld | dismissed ------------------


def dispute_review_start(*, dispute_id: int, staff: User, note: str = "") -> Dispute:
    """Take an open dispute up for review (open -> under_review)."""
    require_staff(staff)
    note = clean_text(note, "note", required=False)
    with transaction.atomic():
        game, dispute = lock_dispute(dispute_id)
        if dispute.status != DisputeStatus.OPEN:
            raise DisputeStateError(
                f"Dispute {dispute.pk} is {dispute.get_status_display().lower()}, not open: "
                "only an open dispute can be taken up for review."
            )
        dispute.status = DisputeStatus.UNDER_REVIEW
        dispute.reviewer = staff
        dispute.save(update_fields=["status", "reviewer", "updated_at"])
        audit(
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
    require_staff(staff)
    resolution = clean_text(resolution, "resolution")
    with transaction.atomic():
        game, dispute = lock_dispute(dispute_id)
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
        audit(game=game, dispute=dispute, actor=staff, action=action, reason=resolution)
        dispute_notify(game=game, dispute=dispute, event=status)
    return dispute


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
    audit(
        game=game,
        dispute=dispute,
        actor=user,
        action=AuditAction.RECORD_READ,
        reason=f"Full record read ({via}) while the game is {game.status}.",
        details={"version": game.version, "via": via},
    )
    return dispute


def require_staff(user: User | AnonymousUser) -> None:
    if not (user.is_authenticated and getattr(user, "is_staff", False)):
        raise Forbidden("Only staff can review disputes and apply remedies.")


def clean_text(value: str, name: str, *, required: bool = True) -> str:
    value = (value or "").strip()
    if required and not value:
        raise InvalidRequest(f"Write the {name}: it is kept in the audit log and may not be empty.")
    if len(value) > MAX_TEXT:
        raise InvalidRequest(f"The {name} may be at most {MAX_TEXT} characters long.")
    return value


def lock_dispute(dispute_id: int) -> tuple[Game, Dispute]:
    game_id = Dispute.objects.filter(pk=dispute_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(f"There is no dispute {dispute_id}.")
    # Locked: the game first (the order every writer takes), then the dispute, so a status
    # change and a remedy on the same case are serialised.
    game = store.lock_game(game_id)
    dispute = Dispute.objects.select_for_update().get(pk=dispute_id)
    return game, dispute


def dispute_for(game: Game, dispute_id: int | None) -> Dispute | None:
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


def check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise VersionConflict(
            f"The game is at version {game.version}, not {expected_version}: it changed "
            "since you looked. Reload the case file and decide again."
        )


def audit(
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
