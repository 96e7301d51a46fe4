"""SQL plans for writing one object: the INSERT and UPDATE statements of a model built once
per process and shape, how each field's value is prepared for them, and :class:`Ref`, a
primary key known once its object is written. games/write_batch.py runs them, alone or
gathered into one statement."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import (
    IntegrityError,
    models,
    transaction,
)
from django.db.models import Field, Model, signals


class Ref:
    """The primary key ``obj`` has once it is written.

    :func:`insert` accepts it as a field's value (a foreign key's id) or as a top-level
    value of a JSON field's object, pointing at an object that may still wait in the same
    batch: the database fills it in, in the batch's statement, and the saved object then
    holds the number in the ``Ref``'s place. Outside a batch the object must be written
    already. :meth:`value` reads the key later, e.g. in an on-commit hook."""

    __slots__ = ("obj",)

    def __init__(self, obj: Model) -> None:
        self.obj = obj

    def value(self) -> Any:
        if self.obj.pk is None:
            raise ValueError(f"{type(self.obj).__name__} {self.obj!r} is not written yet")
        return self.obj.pk

    def __repr__(self) -> str:
        return f"Ref({type(self.obj).__name__}, pk={self.obj.pk})"


@dataclass(frozen=True, eq=False)  # one per model and shape: compared (and hashed) by identity
class _WritePlan:
    sql: str
    fields: tuple[Any, ...]
    returning: tuple[Any, ...]
    # In a batch's statement: each field's SQL type, to CAST its parameter (the values of
    # an INSERT ... SELECT get no type from the target columns).
    casts: tuple[str, ...] = ()
    # Per field, how to prepare its common values without asking the field (_shortcut).
    shortcuts: tuple[_Shortcut | None, ...] = ()


_WRITE_PLANS: dict[tuple[Any, ...], _WritePlan] = {}

# (field, key in its JSON object or None for the field itself, the Ref)
_RefSlot = tuple[Any, "str | None", Ref]


def _cast_type(model_field: Any, connection: Any) -> str:
    """The SQL type to CAST a parameter of this field to: its column's type without a
    length (``varchar(64)`` -> ``varchar``: the column still refuses a longer value; a
    CAST to ``varchar(64)`` would cut it silently)."""
    db_type = model_field.db_type(connection)
    if model_field.is_relation:
        db_type = model_field.target_field.rel_db_type(connection)
    if not db_type:
        raise ValueError(f"{model_field} has no column type to cast to")
    return re.sub(r"\(.*\)", "", str(db_type)).strip()


def _insert_plan(
    model: type[Model], connection: Any, using: str, conflict: tuple[str, ...] | None
) -> _WritePlan:
    key = ("insert", model, using, connection.vendor, conflict)
    plan = _WRITE_PLANS.get(key)
    if plan is None:
        meta = model._meta
        fields = tuple(
            f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field
        )
        _refuse_placeholders(fields)
        ops: Any = connection.ops
        quote = ops.quote_name
        returning_sql, _ = ops.return_insert_columns(meta.db_returning_fields)
        on_conflict = _on_conflict_sql(model, conflict, quote)
        plan = _WRITE_PLANS[key] = _WritePlan(
            sql=(
                f"INSERT INTO {quote(meta.db_table)} "
                f"({', '.join(quote(str(f.column)) for f in fields)}) "
                f"VALUES ({', '.join(['%s'] * len(fields))}){on_conflict} {returning_sql}"
            ),
            fields=fields,
            returning=tuple(meta.db_returning_fields),
            casts=(
                tuple(_cast_type(f, connection) for f in fields)
                if connection.vendor == "postgresql"
                else ()
            ),
            shortcuts=tuple(_shortcut(f, connection) for f in fields),
        )
    return plan


# Field classes (exactly these, not subclasses) whose preparation for the database is, for
# values of these types, the identity or a typed wrapper (Django 5.2 on psycopg 3 sends
# integers as Int2/Int4/Int8 so that a prepared statement's parameter types stay put);
# date-times too on PostgreSQL, where psycopg adapts aware datetimes itself.
_STR_FIELDS = (models.CharField, models.TextField)
_INT_FIELDS = (
    models.IntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
)
_AUTO_FIELDS = (models.AutoField, models.BigAutoField, models.SmallAutoField)

# (the value types, and what to call on such a value: None for the value itself)
_Shortcut = tuple[frozenset[type], Callable[[Any], Any] | None]


def _shortcut(model_field: Any, connection: Any) -> _Shortcut | None:
    """How to prepare this field's common values without asking the field, if possible."""
    target = model_field
    if type(model_field) in (models.ForeignKey, models.OneToOneField):
        target = model_field.target_field
    kind = type(target)
    shortcut: _Shortcut | None = None
    if kind in _STR_FIELDS:
        shortcut = (frozenset({str}), None)
    elif kind is models.BooleanField:
        shortcut = (frozenset({bool}), None)
    elif kind in _AUTO_FIELDS:
        shortcut = (frozenset({int}), None)
    elif kind in _INT_FIELDS:
        typed = getattr(connection.ops, "integerfield_type_map", {}).get(target.get_internal_type())
        shortcut = (frozenset({int}), typed)  # None: the int itself (SQLite)
    elif kind is models.DateTimeField and connection.vendor == "postgresql":
        shortcut = (frozenset({datetime.datetime}), None)
    if shortcut is not None and model_field.null:
        shortcut = (shortcut[0] | {type(None)}, shortcut[1])
    return shortcut


def _on_conflict_sql(
    model: type[Model], conflict: tuple[str, ...] | None, quote: Callable[[str], str]
) -> str:
    """`` ON CONFLICT (columns) DO NOTHING`` for ``insert(on_conflict=...)`` (``()``: any)."""
    if conflict is None:
        return ""
    columns = [str(cast("Field[Any, Any]", model._meta.get_field(n)).column) for n in conflict]
    target = f" ({', '.join(quote(c) for c in columns)})" if columns else ""
    return f" ON CONFLICT{target} DO NOTHING"


def _set_returned(obj: Model, plan: _WritePlan, row: Sequence[Any], using: str) -> None:
    for returned_field, value in zip(plan.returning, row, strict=True):
        setattr(obj, returned_field.attname, value)
    obj._state.adding = False
    obj._state.db = using


def _save_new(obj: Model, conflict: tuple[str, ...] | None, using: str) -> None:
    """The ORM's insert, for what the shortcut does not take."""
    if conflict is None:
        obj.save(force_insert=True, using=using)
        return
    try:
        with transaction.atomic(using=using):
            obj.save(force_insert=True, using=using)
    except IntegrityError:
        obj.pk = None  # ON CONFLICT DO NOTHING


def _ref_slots(fields: Iterable[Any], obj: Model) -> list[_RefSlot]:
    """Where ``obj`` holds a :class:`Ref`: as a field's value, or as a value of a JSON
    field's object."""
    slots: list[_RefSlot] = []
    values = obj.__dict__
    for model_field in fields:
        value = values.get(model_field.attname)
        if isinstance(value, Ref):
            slots.append((model_field, None, value))
        elif isinstance(value, dict):
            slots += [(model_field, k, v) for k, v in value.items() if isinstance(v, Ref)]
    return slots


def _resolve_if_written(obj: Model, slot: _RefSlot) -> bool:
    """Put the key in the Ref's place if the object it points at is written."""
    model_field, key, ref = slot
    if ref.obj.pk is None:
        return False
    if key is None:
        setattr(obj, model_field.attname, ref.obj.pk)
    else:
        getattr(obj, model_field.attname)[key] = ref.obj.pk
    return True


def _params(
    plan: _WritePlan,
    obj: Model,
    connection: Any,
    *,
    adding: bool,
    refs: Sequence[_RefSlot] = (),
) -> list[Any] | None:
    """The plan's field values of ``obj``, ready for the database (None when one of them
    is an expression: only the ORM can write those). A JSON object holding ``refs`` is
    sent with null in their places (the batch's SQL fills them in); a field that is a
    ``Ref`` itself is sent as null (its SQL does not use the parameter)."""
    values = [field.pre_save(obj, adding) for field in plan.fields]
    if any(hasattr(value, "resolve_expression") for value in values):
        return None
    if refs:
        pending = {id(model_field) for model_field, _, _ in refs}
        values = [
            _without_refs(value) if id(f) in pending else value
            for f, value in zip(plan.fields, values, strict=True)
        ]
    shortcuts = plan.shortcuts or (None,) * len(plan.fields)
    return [
        _prepared(f, shortcut, value, connection)
        for f, shortcut, value in zip(plan.fields, shortcuts, values, strict=True)
    ]


def _prepared(model_field: Any, shortcut: _Shortcut | None, value: Any, connection: Any) -> Any:
    """``model_field.get_db_prep_save(value, connection)``, without the call for the values
    whose preparation is known (tests/games/test_compiled.py holds the two to the same)."""
    naive = type(value) is datetime.datetime and value.tzinfo is None  # Django makes it aware
    if shortcut is None or type(value) not in shortcut[0] or naive:
        return model_field.get_db_prep_save(value, connection)
    convert = shortcut[1]
    return value if value is None or convert is None else convert(value)


def _without_refs(value: Any) -> Any:
    if isinstance(value, Ref):
        return None
    return {k: (None if isinstance(v, Ref) else v) for k, v in value.items()}


def _has_receivers(model: type[Model]) -> bool:
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def _refuse_placeholders(fields: Sequence[Any]) -> None:
    for field in fields:
        if hasattr(field, "get_placeholder"):
            raise ValueError(f"{field} has its own SQL placeholder: save it with the ORM.")
