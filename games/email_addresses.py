"""Email addresses: given, confirmed by a signed link, and only then written to.

An account has at most two addresses:

* ``user.email``: **confirmed**. Every email except the confirmation message goes there
  and nowhere else: notifications (:mod:`games.notifications` reads only this field) and
  password resets (Django's ``PasswordResetForm`` looks accounts up by this field).
  Staff may also set it in the admin; an address set there counts as confirmed.
* ``player.email_pending``: given at sign-up or in the settings and **not confirmed
  yet**. The only message it ever gets is the confirmation (:func:`confirmation_send`).
  Until it is confirmed, mail keeps going to the confirmed address, if there is one.

The confirmation link carries a token signed with the site's key
(:mod:`django.core.signing`, salt :data:`SALT`, timestamped) that names the account and a
keyed digest of the address (not the address itself). It is good for
``EMAIL_CONFIRM_SECONDS`` (two days) and only while that address is still the pending
one: giving another address, or confirming this one, makes older links useless. Opening
the link shows a page with one button (so a mail scanner that fetches links confirms
nothing); the button's POST moves the address to ``user.email``.

The confirmation message is sent by a task on the notify queue
(``games.email_confirmation_email``), never inside the request, and how often it may be
asked for is limited per address and per client like password resets
(:mod:`games.mail_limits`, scope ``email_confirm``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import salted_hmac

from games import jobs
from games.models import Player

SALT = "indulgence.email.confirm"
DEFAULT_CONFIRM_SECONDS = 2 * 24 * 3600

Problem = Literal["invalid", "expired", "replaced", "done"]


class LinkProblem(Exception):
    """Why a confirmation link cannot confirm anything: ``invalid`` (not ours, or cut
    short), ``expired``, ``replaced`` (another address was given since, or the address was
    removed) or ``done`` (this address is confirmed already)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem: Problem = problem


@dataclass(frozen=True)
class Addresses:
    confirmed: str
    pending: str


def confirm_seconds() -> int:
    return int(getattr(settings, "EMAIL_CONFIRM_SECONDS", DEFAULT_CONFIRM_SECONDS))


def normalised(address: str) -> str:
    """The address as stored: trimmed, its domain in lower case."""
    return BaseUserManager.normalize_email(address.strip())


def _same(a: str, b: str) -> bool:
    return bool(a) and a.casefold() == b.casefold()


def _digest(address: str) -> str:
    return salted_hmac(SALT, address.casefold(), algorithm="sha256").hexdigest()[:32]


def _player_locked(user: User) -> Player:
    Player.objects.get_or_create(user=user, defaults={"display_name": user.get_username()})
    return Player.objects.select_for_update().get(user=user)


def addresses_of(*, user: User) -> Addresses:
    player = Player.objects.filter(user=user).only("email_pending").first()
    return Addresses(confirmed=user.email, pending=player.email_pending if player else "")


def address_give(*, user: User, address: str) -> Literal["confirmed", "pending"]:
    """Record an address the person typed. ``confirmed``: it is their confirmed address
    already (any other pending address is dropped); ``pending``: it waits for its
    confirmation, which the caller sends (:func:`confirmation_request`)."""
    address = normalised(address)
    with transaction.atomic():
        player = _player_locked(user)
        if _same(user.email, address):
            player.email_pending = ""
            player.save(update_fields=["email_pending"])
            return "confirmed"
        player.email_pending = address
        player.save(update_fields=["email_pending"])
    return "pending"


def address_remove(*, user: User) -> None:
    """Forget both addresses: no email of any kind is sent to this account any more."""
    with transaction.atomic():
        player = _player_locked(user)
        player.email_pending = ""
        player.save(update_fields=["email_pending"])
        get_user_model().objects.filter(pk=user.pk).update(email="")
        user.email = ""


def confirmation_token(*, user_id: int, address: str) -> str:
    return signing.dumps({"u": user_id, "a": _digest(address)}, salt=SALT, compress=True)


def confirmation_target(*, token: str) -> tuple[User, str]:
    """The account and the pending address a confirmation token confirms; raises
    :class:`LinkProblem` otherwise."""
    try:
        data = signing.loads(token, salt=SALT, max_age=confirm_seconds())
    except signing.SignatureExpired:
        raise LinkProblem("expired") from None
    except signing.BadSignature:
        raise LinkProblem("invalid") from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise LinkProblem("invalid")
    user = (
        get_user_model()
        .objects.select_related("player")
        .filter(pk=data["u"], is_active=True)
        .first()
    )
    if user is None:
        raise LinkProblem("invalid")
    player = getattr(user, "player", None)
    pending = player.email_pending if player is not None else ""
    if pending and _digest(pending) == data.get("a"):
        return user, pending
    if user.email and _digest(user.email) == data.get("a"):
        raise LinkProblem("done")
    raise LinkProblem("replaced")


def address_confirm(*, token: str) -> tuple[User, str]:
    """Confirm the pending address the token names: it becomes ``user.email``."""
    with transaction.atomic():
        user, address = confirmation_target(token=token)
        player = _player_locked(user)
        if not _same(player.email_pending, address):  # changed since the check above
            raise LinkProblem("replaced")
        player.email_pending = ""
        player.save(update_fields=["email_pending"])
        user.email = address
        user.save(update_fields=["email"])
    return user, address


# --- the message ------------------------------------------------------------------------


def confirmation_request(*, user: User, address: str, base_url: str) -> None:
    """Queue the confirmation message (after commit, on the notify queue). ``base_url``:
    the scheme and host the person used (the link leads back there, as a password reset's
    does)."""
    jobs.enqueue_on_commit(
        "games.email_confirmation_email", user.pk, normalised(address), base_url.rstrip("/")
    )


def confirmation_send(*, user_id: int, address: str, base_url: str) -> bool:
    """Send one confirmation message (the task's work), in the account's language; False
    when the address is no longer the pending one (confirmed, replaced or removed)."""
    user = get_user_model().objects.select_related("player").filter(pk=user_id).first()
    player = getattr(user, "player", None) if user is not None else None
    if user is None or player is None or not _same(player.email_pending, address):
        return False
    token = confirmation_token(user_id=user.pk, address=address)
    context = {
        "username": user.get_username(),
        "address": address,
        "link": base_url + reverse("email-confirm", args=[token]),
        "days": max(1, confirm_seconds() // 86400),
        "hours": max(1, confirm_seconds() // 3600),
    }
    with translation.override(player.language or settings.LANGUAGE_CODE):
        subject = render_to_string("account/email_confirm_subject.txt", context)
        body = render_to_string("account/email_confirm_email.txt", context)
    EmailMessage(subject=" ".join(subject.split()), body=body, to=[address]).send()
    return True
