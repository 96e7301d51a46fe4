"""An unreachable database answers 503 with Retry-After, never 500 (games.db_errors)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from games import selectors


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**_: object) -> None:
        raise OperationalError("connection to server at 127.0.0.1 port 5432 failed")

    monkeypatch.setattr(selectors, "game_get", refuse)
    monkeypatch.setattr(selectors, "game_list", refuse)


@pytest.mark.django_db
@pytest.mark.usefixtures("database_down")
def test_the_api_answers_503_service_unavailable_in_its_error_shape(client: Client) -> None:
    response = client.get("/api/v1/games/1/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "service_unavailable"
    assert "nothing was changed" in body["detail"]


@pytest.mark.django_db
@pytest.mark.usefixtures("database_down")
def test_a_web_page_answers_503_with_a_sentence(client: Client) -> None:
    response = client.get("/games/1/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "database is unavailable" in response.content.decode()


@pytest.mark.django_db
def test_other_errors_are_not_disguised_as_an_outage(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(**_: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(selectors, "game_get", crash)
    client.raise_request_exception = False
    assert client.get("/api/v1/games/1/").status_code == 500
