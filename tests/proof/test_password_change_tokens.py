"""Changing or resetting a password revokes the account's API tokens: a token copied by
whoever knew the old password stops working (401)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.api.conftest import Bearer

pytestmark = pytest.mark.django_db

NEW = "a-new-long-pass-phrase"


def test_a_password_change_revokes_the_tokens(owner: Any, bearer: Bearer) -> None:
    api = bearer(owner)
    assert api.get("/api/v1/me").status_code == 200
    web = Client()
    web.force_login(owner)
    response = web.post(
        "/accounts/password_change/",
        {"old_password": "pw", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302, response.content[:500]
    refused = api.get("/api/v1/me")
    assert refused.status_code == 401
    # The person stays signed in on the site, and a token issued now works.
    assert web.get("/settings/").status_code == 200
    assert bearer(owner).get("/api/v1/me").status_code == 200


def test_a_password_reset_revokes_the_tokens(owner: Any, bearer: Bearer) -> None:
    api = bearer(owner)
    assert api.get("/api/v1/me").status_code == 200
    # The link the reset email carries (how it is mailed is not what this test is about).
    uid = urlsafe_base64_encode(force_bytes(owner.pk))
    link = f"/accounts/reset/{uid}/{default_token_generator.make_token(owner)}/"
    web = Client()
    form = web.get(link, follow=True)
    assert form.status_code == 200
    assert form.redirect_chain, "the reset page moves the token out of the address"
    done = web.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302, done.content[:500]
    assert api.get("/api/v1/me").status_code == 401


def test_a_password_set_anywhere_else_revokes_them_too(owner: Any, bearer: Bearer) -> None:
    """``manage.py changepassword`` and the admin's form call set_password and save."""
    api = bearer(owner)
    other = bearer(owner, scopes=("read",))
    owner.set_password(NEW)
    owner.save()
    assert api.get("/api/v1/me").status_code == 401
    assert other.get("/api/v1/me").status_code == 401


def test_saving_the_user_without_a_new_password_keeps_the_tokens(
    owner: Any, bearer: Bearer
) -> None:
    api = bearer(owner)
    owner.first_name = "Ann"
    owner.save()
    assert (
        Client().post("/accounts/login/", {"username": "owner", "password": "pw"}).status_code
        == 302
    )
    assert api.get("/api/v1/me").status_code == 200
