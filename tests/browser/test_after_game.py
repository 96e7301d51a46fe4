"""A player whose game is over downloads its full record from the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import log_in
from tests.helpers import played_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_finished_pax_table_downloads_the_full_record(
    live_server: Any, new_page: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="solo", password="pw")
    game = played_out(user, "pax", seed="after", player_count=2, variant="automa-SG")
    page = new_page()
    log_in(page, live_server.url, "solo")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download the full record (JSON)").click()
    download = info.value
    assert download.suggested_filename == f"game-{game.pk}.json"
    record = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert record["id"] == game.pk
    assert record["game_type"] == "pax"
    assert record["game_status"] == "finished"  # H.3 (docs/api.md)
    page.get_by_role("link", name="Replay this game move by move").click()
    assert page.url.startswith(f"{live_server.url}/games/{game.pk}/replay")
