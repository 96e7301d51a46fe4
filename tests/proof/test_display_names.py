"""Names cannot hide characters (controls, bidi overrides, zero-width) or pass for another
account: a display name that reads as another's username or display name is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Player

pytestmark = pytest.mark.django_db

HIDDEN = {
    "right-to-left override": "Alice\u202eecilA",
    "left-to-right isolate": "\u2066Alice",
    "zero-width space": "Ali\u200bce",
    "zero-width joiner": "Ali\u200dce",
    "byte order mark": "\ufeffAlice",
    "bell": "Alice\x07",
    "escape": "\x1b[31mAlice",
    "soft hyphen": "Al\u00adice",
}


def _set_name(user: Any, name: str) -> Any:
    services.player_ensure(user=user)
    client = Client()
    client.force_login(user)
    return client.post(f"/players/{user.username}/", {"display_name": name})


def _name(user: Any) -> str:
    return str(Player.objects.get(user=user).display_name)


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_hidden_characters_in_a_display_name_are_refused(name: str, owner: Any) -> None:
    services.player_ensure(user=owner)
    response = _set_name(owner, name)
    assert response.status_code == 200  # the form again, with its error
    assert "display_name" in response.context["form"].errors
    assert _name(owner) == "owner"


@pytest.mark.parametrize("name", ["opponent", "OPPONENT", "ｏｐｐｏｎｅｎｔ", " Opponent "])
def test_a_display_name_that_reads_as_another_username_is_refused(
    name: str, owner: Any, opponent: Any
) -> None:
    services.player_ensure(user=owner)
    services.player_ensure(user=opponent)
    response = _set_name(owner, name)
    assert response.status_code == 200
    assert "display_name" in response.context["form"].errors
    assert _name(owner) == "owner"


@pytest.mark.parametrize("name", ["the boss", "THE BOSS", "Ｔｈｅ Ｂｏｓｓ"])
def test_a_display_name_that_reads_as_another_display_name_is_refused(
    name: str, owner: Any, third: Any
) -> None:
    services.player_ensure(user=owner)
    services.player_display_name_set(user=third, display_name="The Boss")
    response = _set_name(owner, name)
    assert "display_name" in response.context["form"].errors
    assert _name(owner) == "owner"


def test_ones_own_name_and_ordinary_names_are_accepted(owner: Any, opponent: Any) -> None:
    services.player_ensure(user=opponent)
    for name in ("OWNER", "Owner the Great", "オーナー", "Ōwnér"):
        response = _set_name(owner, name)
        assert response.status_code == 302, name
        assert _name(owner) == name


def test_full_width_letters_are_stored_as_the_log_in_reads_them(owner: Any) -> None:
    assert _set_name(owner, "Ｆｕｌｌ Ｗｉｄｔｈ").status_code == 302
    assert _name(owner) == "Full Width"


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_hidden_characters_in_a_username_are_refused_at_sign_up(name: str) -> None:
    before = get_user_model().objects.count()
    response = Client().post(
        "/accounts/signup/",
        {
            "username": name.replace(" ", ""),
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "language": "en",
        },
    )
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert get_user_model().objects.count() == before
