"""The email address on the web pages: its form, the limit on confirmation messages,
and the sign-up's part (the sign-up view in games/web/views.py calls the two
``signup_email_*`` helpers). The pages themselves: games/web/account_views.py."""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import email_addresses, mail_limits
from games.client_address import client_address


def base_url(request: HttpRequest) -> str:
    """Scheme and host the person used: the confirmation link leads back there."""
    return request.build_absolute_uri("/").rstrip("/")


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("Email address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


def confirmation_wait(request: HttpRequest, address: str) -> float:
    """Count one confirmation message to ``address`` asked from this client; 0.0 when
    allowed, else the seconds to wait (games.mail_limits, scope ``email_confirm``)."""
    return mail_limits.wait_for(
        "email_confirm",
        account=email_addresses.normalised(address).casefold(),
        address=client_address(request),
    )


def wait_text(wait: float) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Too many confirmation messages were asked for: please wait %(minutes)d minute "
        "and try again.",
        "Too many confirmation messages were asked for: please wait %(minutes)d minutes "
        "and try again.",
        minutes,
    ) % {"minutes": minutes}


def signup_email_refused(request: HttpRequest, form: forms.BaseForm) -> bool:
    """For the sign-up view, once its form is valid: True (with the reason on the email
    field) when no confirmation may be sent to the address given now."""
    address = form.cleaned_data.get("email") or ""
    if not address:
        return False
    wait = confirmation_wait(request, address)
    if wait:
        form.add_error("email", wait_text(wait))
    return bool(wait)


def signup_email_given(request: HttpRequest, user: User, address: str) -> None:
    """For the sign-up view, once the account exists: keep the address pending and send
    its confirmation."""
    if address:
        address = email_addresses.normalised(address)
        email_addresses.address_give(user=user, address=address)
        email_addresses.confirmation_request(user=user, address=address, base_url=base_url(request))
        messages.info(request, sent_text(address))


def sent_text(address: str) -> str:
    return _(
        "We sent a link to %(address)s. Follow it to confirm the address: until then, "
        "nothing else is sent there."
    ) % {"address": address}


def email_context(user: User, *, form: EmailForm | None = None, **extra: Any) -> dict[str, Any]:
    addresses = email_addresses.addresses_of(user=user)
    return {
        "addresses": addresses,
        "email_form": form or EmailForm(),
        "confirm_hours": max(1, email_addresses.confirm_seconds() // 3600),
        **extra,
    }
