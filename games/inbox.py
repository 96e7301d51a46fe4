"""The site's inbox: the in-app notifications as a person reads them on the web (the
header's bell, the notifications page), and the games waiting for their move.

The rows are :class:`games.models.Notification` (written by :mod:`games.notifications`);
the API reads the same rows (``GET /api/v1/notifications``).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, QuerySet
from django.utils import timezone

from games.models import Game, GameStatus, Notification, NotificationKind

AnyUser = User | AnonymousUser

# The bell shows "99+" beyond this: counting stops there.
UNREAD_SHOWN_MAX = 99
# Told by the notifications about a turn; seen once the person opens or plays at the table.
TURN_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.REMINDER)


def unread_count(*, user: User) -> int:
    """Unread notifications, counted up to UNREAD_SHOWN_MAX + 1 (a bounded query)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True).order_by()
    return unread[: UNREAD_SHOWN_MAX + 1].count()


def latest_unread(*, user: User) -> Notification | None:
    return Notification.objects.filter(user=user, read_at__isnull=True).order_by("-id").first()


def notifications_page(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    """Newest first, each with its game."""
    rows = Notification.objects.filter(user=user).order_by("-id")
    return rows.filter(read_at__isnull=True) if unread_only else rows


def turn_notifications_seen(*, user: AnyUser, game_id: int, before: datetime | None = None) -> int:
    """Mark read the person's "your turn" and reminder notifications of one game (made
    before ``before``, if given): they are at the table, or have just played there."""
    if not user.is_authenticated:
        return 0
    rows = Notification.objects.filter(
        user_id=user.pk, game_id=game_id, kind__in=TURN_KINDS, read_at__isnull=True
    )
    if before is not None:
        rows = rows.filter(created_at__lt=before)
    return rows.update(read_at=timezone.now())


def games_my_turn(*, user: AnyUser) -> QuerySet[Game]:
    """Games in progress waiting for this person's move (not a seat a bot took over),
    the longest waiting first."""
    if not user.is_authenticated:
        return Game.objects.none()
    return (
        Game.objects.filter(
            status=GameStatus.IN_PROGRESS,
            seats__player__user_id=user.pk,
            seats__number=F("to_act_seat"),
            seats__bot_kind="",
        )
        .distinct()
        .prefetch_related("seats__player__user")
        .order_by("updated_at", "id")
    )


def my_games_turn_first(*, user: AnyUser, limit: int = 50) -> list[Game]:
    """The lobby's "My games": every game waiting for this person's move first (however
    old), then the others newest first; void games left out."""
    from games import selectors

    waiting = list(games_my_turn(user=user)[:limit])
    others = (
        selectors.game_list(user=user, mine=True)
        .exclude(status=GameStatus.VOID)
        .exclude(pk__in=[g.pk for g in waiting])
    )
    return waiting + list(others[: max(limit - len(waiting), 0)])
