"""Model fields of our own."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.db import models


class JSONTextField(models.TextField):
    """A JSON document stored as its text (``text`` on PostgreSQL, not ``jsonb``).

    For documents written and read whole and never queried inside: a game's snapshot, its
    settled hands' records, an Idempotency-Key's stored answer. PostgreSQL then neither
    parses them into ``jsonb`` on every write nor prints them back on every read; measured
    on real snapshots (2026-11-24, docs/performance.md): 210 -> 95 us of PostgreSQL CPU per
    snapshot UPDATE, 140 -> 70 us per stored answer, and the compressed value stays inline.
    Python sees the decoded value, as with ``JSONField``; SQL NULL is ``None``."""

    description = "A JSON document, stored as text"
    # For django-stubs (as its JSONField): the attribute holds any decoded document.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any
    _pyi_lookup_exact_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return value  # already the decoded document (as JSONField)

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def value_to_string(self, obj: Any) -> Any:
        return self.value_from_object(obj)  # serializers embed the document (as JSONField)

    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": forms.JSONField, **kwargs})
