"""The home page says what this is."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_home_page_says_what_indulgence_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "trick-taking card game" in response.content.decode()


@pytest.mark.django_db
def test_the_home_page_is_served_in_japanese_on_request(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert '<html lang="ja">' in response.content.decode()
