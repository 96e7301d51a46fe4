"""The words every game's pages share, in the reader's language: game statuses, built-in
bots and players' names, notification kinds, token scopes. Each game's own words are in
its module (``indulgence_vocab``, ``pax_vocab``, ...)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.services import BOT_NAME_PREFIX

STATUSES = {
    "open": pgettext_lazy("game status", "Open"),
    "in_progress": pgettext_lazy("game status", "In progress"),
    "finished": pgettext_lazy("game status", "Finished"),
    "void": pgettext_lazy("game status", "Void"),
}
BOT_KINDS = {
    "random": gettext_lazy("Random bot"),
    "heuristic": gettext_lazy("Heuristic bot"),
    "ismcts": gettext_lazy("ISMCTS bot"),
    "novice": gettext_lazy("Novice bot"),
    "scientist": gettext_lazy("Scientist bot"),
}
NOTIFICATION_KINDS = {
    "your_turn": gettext_lazy("your turn"),
    "reminder": gettext_lazy("reminder"),
    "game_started": gettext_lazy("game started"),
    "player_joined": gettext_lazy("player joined"),
    "game_finished": gettext_lazy("game finished"),
    "seat_handed_to_bot": gettext_lazy("seat handed to a bot"),
    "dispute_update": gettext_lazy("dispute update"),
    "challenge": gettext_lazy("challenge"),
    "autopilot_move": gettext_lazy("autopilot move"),
}
TOKEN_SCOPES = {"read": gettext_lazy("read"), "play": gettext_lazy("play")}


def bot_kind_of(username: str) -> str:
    """The built-in bot kind whose shared account this is ("bot-heuristic" -> "heuristic"),
    else "". Only built-in bots hold ``bot-`` names (services.username_reserved)."""
    kind = username.removeprefix(BOT_NAME_PREFIX)
    return kind if kind != username and kind in BOT_KINDS else ""


def bot_name(kind: str) -> str:
    """A built-in bot's name in the reader's language ("Heuristic bot")."""
    return str(BOT_KINDS.get(kind, kind))


def player_name(username: str, display_name: str, *, is_bot: bool) -> str:
    """A player outside any seat (leaderboard, profile): built-in bots by their kind, in the
    reader's language; everyone else by their display name."""
    kind = bot_kind_of(username) if is_bot else ""
    return bot_name(kind) if kind else (display_name or username)


def labels(words: dict[str, Any], keys: list[str]) -> str:
    """Keys (notification kinds, token scopes) as the reader's words, comma separated."""
    return _(", ").join(str(words.get(key, key)) for key in keys)
