"""What a notification says on the site, in the reader's language.

Notification rows keep the English title and body the API sends; the site says the same
from the row's kind and data, translated (``gettext`` at render time), so a Japanese
player reads their inbox, desktop notifications and emails (``games.notifications``) in
Japanese. A game may say its own "your turn" (its pages module's ``turn_sentence``, from
the fields its kind's ``turn_data`` put in the row: Pax's decision asked, P-74, P-85). Also what the
header's bell shows (:func:`bell_context`) and one line of the notifications page.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import inbox, kinds
from games.models import Notification, NotificationKind
from games.web import pages

# games.disputes.HEADLINES, by the event a dispute_update carries.
DISPUTE_EVENTS = {
    "opened": gettext_lazy("a dispute was opened"),
    "under_review": gettext_lazy("the dispute is under review"),
    "upheld": gettext_lazy("the dispute was upheld"),
    "dismissed": gettext_lazy("the dispute was dismissed"),
    "game_voided": gettext_lazy("the game was voided"),
    "game_rewound": gettext_lazy("the game was rewound"),
    "florins_adjusted": gettext_lazy("florins were adjusted"),
}


def notification_text(notification: Notification) -> str:
    """One sentence: what happened, and in which game."""
    data: dict[str, Any] = notification.data if isinstance(notification.data, dict) else {}
    game = notification.game_id or 0
    kind = notification.kind
    if kind == NotificationKind.YOUR_TURN:
        said = _game_turn_sentence(game, data)
        return said or _("Your turn in game %(game)d.") % {"game": game}
    if kind == NotificationKind.REMINDER:
        return _("Reminder: your time to move in game %(game)d is running out.") % {"game": game}
    if kind == NotificationKind.GAME_STARTED:
        return _("Game %(game)d has started: every seat is taken.") % {"game": game}
    if kind == NotificationKind.PLAYER_JOINED:
        return _("%(name)s joined game %(game)d.") % {
            "name": str(data.get("username", "")),
            "game": game,
        }
    if kind == NotificationKind.GAME_FINISHED:
        result = data.get("result") or {}
        winners = result.get("winner_seats") or [] if isinstance(result, dict) else []
        if isinstance(result, dict) and (
            result.get("winner_seat") == data.get("seat") or data.get("seat") in winners
        ):  # one winner (Indulgence), or several (Pax Illuminaten's shared wins, H.5)
            return _("Game %(game)d is over: you won.") % {"game": game}
        return _("Game %(game)d is over.") % {"game": game}
    if kind == NotificationKind.SEAT_HANDED_TO_BOT:
        text = _("You missed several turns in a row: a bot now plays your seat in game %(game)d.")
        return text % {"game": game}
    if kind == NotificationKind.AUTOPILOT_MOVE:
        return _("Your time ran out in game %(game)d: the autopilot moved for you.") % {
            "game": game
        }
    if kind == NotificationKind.CHALLENGE:
        return _("%(name)s challenges you to game %(game)d.") % {
            "name": str(data.get("from", "")),
            "game": game,
        }
    if kind == NotificationKind.DISPUTE_UPDATE:
        what = DISPUTE_EVENTS.get(str(data.get("event", "")))
        if what is not None:
            return _("Game %(game)d: %(what)s.") % {"game": game, "what": what}
    return notification.title


def _game_turn_sentence(game: int, data: dict[str, Any]) -> str | None:
    """The game's own "your turn" sentence (its pages module's ``turn_sentence``) when the
    notification's data names the game and the kind told more (Pax's decision, P-74)."""
    kind = kinds.KINDS.get(str(data.get("game_type", "")))
    if kind is None:
        return None
    sentence = getattr(pages.of_kind(kind), "turn_sentence", None)
    return sentence(game, data) if sentence is not None else None


def is_turn(notification: Notification) -> bool:
    """A notification that asks the reader to act: shown on the desktop when allowed."""
    return notification.kind in (
        NotificationKind.YOUR_TURN,
        NotificationKind.REMINDER,
        NotificationKind.CHALLENGE,
    )


def notification_line(notification: Any) -> dict[str, Any]:
    return {
        "id": notification.pk,
        "text": notification_text(notification),
        "game": notification.game_id,
        "created_at": notification.created_at,
        "just_now": timezone.now() - notification.created_at < timedelta(minutes=1),
        "unread": notification.read_at is None,
        "turn": is_turn(notification),
        "email": notification.email_status,
    }


def bell_context(user: User) -> dict[str, Any]:
    """What the bell shows: the unread count (99+ beyond) and the newest unread one
    (inbox.js turns it into a desktop notification when allowed)."""
    count = inbox.unread_count(user=user)
    latest = inbox.latest_unread(user=user)
    return {
        "bell_count": count,
        "bell_shown": f"{inbox.UNREAD_SHOWN_MAX}+" if count > inbox.UNREAD_SHOWN_MAX else count,
        "bell_latest": notification_line(latest) if latest is not None else None,
        "bell_poll_seconds": settings.INBOX_POLL_SECONDS,
    }
