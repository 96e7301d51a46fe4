"""Accounts: the Player profile of every account, built-in bot accounts, sign-up, a
person's language and display name."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import InvalidRequest
from games.models import Player


def player_ensure(*, user: User, is_bot: bool = False, bot_kind: str = "") -> Player:
    """The user's Player profile, created on first use; ``is_bot`` only ever adds the flag."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()}
    )
    if is_bot and (not player.is_bot or (bot_kind and player.bot_kind != bot_kind)):
        player.is_bot = True
        player.bot_kind = bot_kind or player.bot_kind
        player.save(update_fields=["is_bot", "bot_kind"])
    return player


def bot_player(*, kind: str) -> Player:
    """The shared account a built-in bot plays under (``bot-<kind>``). The accounts exist
    from migration 0011, and no one can sign up under a ``bot-`` name (username_reserved);
    this creates one only for a kind added since."""
    user, _ = get_user_model().objects.get_or_create(username=f"{BOT_NAME_PREFIX}{kind}")
    if user.has_usable_password():
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return player_ensure(user=user, is_bot=True, bot_kind=kind)


LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
BOT_NAME_PREFIX = "bot-"


def username_reserved(username: str) -> bool:
    """True for names only the server's built-in bots may hold: every ``bot-`` name, read
    as the log-in reads it (NFKC, any case, with invisible format characters dropped), so
    ``BOT-Random`` and ``ｂｏｔ-random`` are reserved too."""
    folded = unicodedata.normalize("NFKC", username).casefold().strip()
    visible = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return visible.startswith(BOT_NAME_PREFIX)


def account_signup(*, username: str, password: str, language: str = "en") -> User:
    """Create a human account and its Player profile in one transaction.

    The caller validates the password (Django's validators run in the sign-up form).
    """
    if language not in LANGUAGE_CODES:
        raise InvalidRequest(
            _("language must be one of %(codes)s.") % {"codes": ", ".join(sorted(LANGUAGE_CODES))}
        )
    if username_reserved(username):
        raise InvalidRequest(
            _("Names beginning with “bot-” belong to the site's built-in bots; choose another.")
        )
    users = get_user_model()
    with transaction.atomic():
        if users.objects.filter(username__iexact=username).exists():
            raise InvalidRequest(_("That username is taken."))
        user = users.objects.create_user(username=username, password=password)
        player = player_ensure(user=user)
        player.language = language
        player.save(update_fields=["language"])
    return user


def player_language_set(*, user: User, language: str) -> Player:
    """Remember the language a signed-in person reads the site in."""
    if language not in LANGUAGE_CODES:
        raise InvalidRequest(
            _("language must be one of %(codes)s.") % {"codes": ", ".join(sorted(LANGUAGE_CODES))}
        )
    player = player_ensure(user=user)
    if player.language != language:
        player.language = language
        player.save(update_fields=["language"])
    return player


DISPLAY_NAME_MAX = 64


def player_display_name_set(*, user: User, display_name: str) -> Player:
    """The name shown at tables and on the leaderboard; blank means the username."""
    name = " ".join(display_name.split())
    if len(name) > DISPLAY_NAME_MAX:
        raise InvalidRequest(
            _("A display name has at most %(max)d characters.") % {"max": DISPLAY_NAME_MAX}
        )
    player = player_ensure(user=user)
    name = name or user.get_username()
    if player.display_name != name:
        player.display_name = name
        player.save(update_fields=["display_name"])
    return player
