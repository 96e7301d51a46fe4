"""Django admin for dispute review: read-only lists that lead to the staff case file.

Nothing here writes. Disputes change only through ``games.disputes`` (the case file's
forms at ``/staff/disputes/<id>/``); audit entries and florin adjustments are append-only
and admin has no add, change or delete permission on them, superusers included.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import AuditEntry, Dispute, FlorinAdjustment
from games.staff.selectors import AGE_FILTERS, disputes_of_age


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)


class AgeFilter(admin.SimpleListFilter):
    title = "age"
    parameter_name = "age"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(key, label) for key, (label, _newer, _older) in AGE_FILTERS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return disputes_of_age(queryset, value) if value in AGE_FILTERS else queryset


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ("id", "case_file", "game_id", "status", "opened_by", "created_at", "reviewer")
    list_filter = ("status", AgeFilter)
    search_fields = ("=game__id", "reason", "opened_by__username")
    search_help_text = "A game id, a word of the reason, or who opened it."
    ordering = ("created_at",)
    list_select_related = ("opened_by", "reviewer")

    @admin.display(description="Case file")
    def case_file(self, obj: Dispute) -> str:
        return format_html(
            '<a href="{}">open the case file</a>', reverse("staff:case", args=[obj.pk])
        )


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "actor", "action", "game_id", "dispute_id", "reason")
    list_filter = ("action",)
    search_fields = ("=game__id", "reason", "actor__username")
    ordering = ("-created_at", "-id")
    list_select_related = ("actor",)


@admin.register(FlorinAdjustment)
class FlorinAdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "game_id", "seat", "amount", "reason")
    search_fields = ("=game__id", "reason")
    ordering = ("-created_at", "-id")
