"""The audit log is append-only: the ORM, the admin and (on PostgreSQL) the database
itself refuse to change or remove an entry."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db import DatabaseError, connection, transaction
from django.test import Client

from games import disputes
from games.models import AppendOnlyError, AuditEntry, FlorinAdjustment, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(running_game: Game, staff: Any) -> AuditEntry:
    return disputes.game_void(game_id=running_game.pk, staff=staff, reason="Broken deal.")


def test_saving_an_existing_entry_is_refused(entry: AuditEntry) -> None:
    entry.reason = "Nothing happened."
    with pytest.raises(AppendOnlyError, match="append-only: save refused"):
        entry.save()
    assert AuditEntry.objects.get(pk=entry.pk).reason == "Broken deal."


def test_deleting_an_entry_is_refused(entry: AuditEntry) -> None:
    with pytest.raises(AppendOnlyError, match="delete refused"):
        entry.delete()
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_queryset_update_and_delete_are_refused(entry: AuditEntry) -> None:
    with pytest.raises(AppendOnlyError, match="update refused"):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="Nothing happened.")
    with pytest.raises(AppendOnlyError, match="update refused"):
        AuditEntry.objects.bulk_update([entry], ["reason"])
    with pytest.raises(AppendOnlyError, match="delete refused"):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == "Broken deal."


@pytest.mark.postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_auditentry SET reason = 'Nothing happened.'",
        "DELETE FROM games_auditentry",
    ],
)
def test_the_database_refuses_raw_sql_changes(entry: AuditEntry, sql: str) -> None:
    assert connection.vendor == "postgresql"
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)
    assert AuditEntry.objects.get(pk=entry.pk).reason == "Broken deal."


@pytest.mark.postgres
def test_the_database_refuses_raw_sql_changes_to_adjustments(
    finished_game: Game, staff: Any
) -> None:
    disputes.florins_adjust(game_id=finished_game.pk, staff=staff, seat=0, amount=3, reason="r")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE games_florinadjustment SET amount = 300")
    assert FlorinAdjustment.objects.get().amount == 3


def test_the_admin_cannot_add_change_or_delete_entries(
    entry: AuditEntry, make_user: Any, client: Client
) -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    model_admin = admin.site._registry[AuditEntry]
    request: Any = type("Request", (), {"user": root})()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)

    client.force_login(root)
    assert client.get(f"/admin/games/auditentry/{entry.pk}/change/").status_code == 200
    response = client.post(
        f"/admin/games/auditentry/{entry.pk}/change/", {"reason": "Nothing happened."}
    )
    assert response.status_code == 403
    assert client.post(f"/admin/games/auditentry/{entry.pk}/delete/").status_code == 403
    assert client.get("/admin/games/auditentry/add/").status_code == 403
    assert AuditEntry.objects.get(pk=entry.pk).reason == "Broken deal."
