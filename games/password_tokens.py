"""A new password revokes the account's API tokens.

Django tells every password validator when a password has really changed
(``password_changed``, called from ``User.save()`` after ``set_password``: the password
change and reset pages, the admin's form, ``manage.py changepassword``; not the silent
re-hashing at log-in when Django raises its hashing cost). This validator checks nothing
and uses that call: whoever took a token while they knew the old password loses it.
The person's current session stays signed in (Django's views keep it); their other
sessions end, as Django's session hash already does.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext


class RevokeTokensOnPasswordChange:
    """Listed in ``AUTH_PASSWORD_VALIDATORS``; validates nothing."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is None or user.pk is None:
            return
        from games.models import ApiToken

        ApiToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )

    def get_help_text(self) -> str:
        return gettext("A new password revokes every API token of the account.")
