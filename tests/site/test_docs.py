"""Issue 21, item 6: the documents say what the code does. The README points at the bot
docs and the client, the bot quick start needs nothing after ``make run``, api.md stands
alone and names every field of the view, and ``make run PORT=...`` links to that port."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games import selectors
from tests.api.support import three_player_game

ROOT = Path(__file__).resolve().parents[2]
API_MD = (ROOT / "docs" / "api.md").read_text()


def make_dry_run(*arguments: str) -> str:
    result = subprocess.run(
        ["make", "-n", "run", *arguments], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return result.stdout


def test_the_readme_lists_the_bot_docs_and_the_python_client() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "`docs/bots.md`" in readme
    assert "`clients/python/`" in readme
    assert (ROOT / "clients" / "python" / "README.md").exists()


def test_make_run_points_notification_links_at_its_port() -> None:
    commands = make_dry_run("PORT=8123")
    assert "SITE_URL=http://127.0.0.1:8123 .venv/bin/python manage.py runserver 127.0.0.1:8123" in (
        commands
    )
    assert "SITE_URL=http://127.0.0.1:8123 .venv/bin/python manage.py sweep_deadlines" in commands
    explicit = make_dry_run("PORT=8123", "SITE_URL=https://cards.example.org")
    assert "SITE_URL=https://cards.example.org .venv/bin/python manage.py runserver" in explicit


def test_the_bot_quick_start_works_right_after_make_run(tmp_path: Path) -> None:
    """A fresh ``make run`` installs the client the quick start's commands import (with
    httpx, which the server itself does not need) before serving."""
    commands = make_dry_run(f"VENV={tmp_path / 'venv'}").splitlines()
    install = next(i for i, c in enumerate(commands) if "-e clients/python" in c)
    serve = next(i for i, c in enumerate(commands) if "runserver" in c)
    assert install < serve
    assert "-c requirements-dev.lock" in commands[install]  # httpx at the locked version
    quick_start = (ROOT / "docs" / "bots.md").read_text().split("## The loop every bot runs")[0]
    assert "optional" not in quick_start
    steps = re.findall(r"^(?:TOKEN=\$\()?\.venv/bin/python ([^ )]+)", quick_start, re.M)
    assert steps[:2] == ["manage.py", "examples/bots/random_bot.py"]
    for path in steps:
        assert (ROOT / path).exists()


def test_api_md_refers_to_nothing_outside_the_repository() -> None:
    assert "shared/" not in API_MD
    for target in re.findall(r"\]\(([^)]+)\)", API_MD):
        if target.startswith("#"):
            continue
        assert not target.startswith("http"), target
        assert (ROOT / "docs" / target.split("#")[0]).exists(), target
    for url in re.findall(r"https?://[^\s)>`\"']+", API_MD):
        assert url.startswith("http://127.0.0.1:8000"), url  # the local server of make run


@pytest.mark.django_db
def test_api_md_documents_every_field_of_the_view(owner: Any, opponent: Any, third: Any) -> None:
    game = three_player_game(owner, opponent, third)
    view: dict[str, Any] = selectors.game_view(game=game, user=owner)
    view_section = API_MD.split("## The view")[1].split("## Writing a bot")[0]
    documented = set(re.findall(r"^\| `([a-z_]+)`", view_section, re.M))
    for group in re.findall(
        r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)(?:, `([a-z_]+)`)?", view_section, re.M
    ):
        documented |= {name for name in group if name}
    assert set(view) <= documented, sorted(set(view) - documented)
    seat_fields = set(view["seats"][0])
    seats_row = next(line for line in view_section.splitlines() if line.startswith("| `seats`"))
    for field in seat_fields:
        assert f"`{field}`" in seats_row, field
    for edict_field in view["edict_row"][0]:
        assert f'"{edict_field}"' in view_section, edict_field
