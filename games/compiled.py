"""ORM queries compiled to SQL once per process, then run with new parameter values.

Turning a queryset into SQL costs Django more CPU than PostgreSQL spends answering the
small queries every request makes (the game row locked for a move, a game's seats with
their accounts, the token): ``loadtest.cost`` measured SQL compilation at about a quarter
of a move's CPU. A :class:`CompiledQuery` builds its queryset once, with *sentinel*
values where the arguments go, compiles it, and from then on only executes that SQL with
the arguments in the sentinels' places and turns the rows into model instances exactly as
Django's ``ModelIterable`` does (``select_related`` objects, annotations, converters).

The SQL still comes from the ORM, so it follows the models. What it does not support, and
refuses when it is built: a sentinel that does not reach the SQL unchanged (a lookup that
rewrites its value), querysets with ``prefetch_related``, and values that change the
query's shape (an ``__in`` list of varying length: build a query per shape).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import (
    DEFAULT_DB_ALIAS,
    connections,
)
from django.db.models import Model, QuerySet
from django.db.models import query as django_query
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]  # (position in params, index of the argument)
    converters: tuple[tuple[int, Any], ...]
    model: type[Model]
    fields: slice
    init_list: list[str]
    populators: list[Any]
    annotations: tuple[tuple[str, int], ...]
    for_update: bool


_SENTINEL_NUMBERS = itertools.count(1)


def _sentinel(kind: type[int] | type[str]) -> int | str:
    """A value of ``kind`` no real argument equals: a large negative id, or a string with
    a NUL byte (never sent to the database: it only marks a parameter's place)."""
    number = next(_SENTINEL_NUMBERS)
    return -7_300_000_000 - number if kind is int else f"\x00compiled-query-{number}"


class CompiledQuery(Generic[M]):
    """``CompiledQuery(build, int, str)``: ``build`` takes arguments of those types and
    returns the queryset; calling the object with real arguments runs the same SQL with
    them and returns the model instances. ``build`` is called once, with sentinel values
    that must reach the SQL's parameters unchanged."""

    def __init__(
        self,
        build: Callable[..., QuerySet[M]],
        *argument_types: type[int] | type[str],
        using: str = DEFAULT_DB_ALIAS,
    ) -> None:
        self._build = build
        self._sentinels = tuple(_sentinel(kind) for kind in argument_types)
        self._using = using
        self._plans: dict[str, _Plan] = {}
        self._lock = threading.Lock()

    def __call__(self, *args: Any) -> list[M]:
        if len(args) != len(self._sentinels):
            raise TypeError(f"expected {len(self._sentinels)} arguments, got {len(args)}")
        connection = connections[self._using]
        plan = self._plans.get(connection.vendor)
        if plan is None:
            with self._lock:
                plan = self._plans.get(connection.vendor) or self._compile(connection.vendor)
        if plan.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(plan.params)
        for position, index in plan.slots:
            params[position] = args[index]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows: Sequence[Any] = cursor.fetchall()
        result: list[M] = []
        for row in rows:
            if plan.converters:
                row = list(row)
                for position, (converters, expression) in plan.converters:
                    for converter in converters:
                        row[position] = converter(row[position], expression, connection)
            obj = plan.model.from_db(self._using, plan.init_list, row[plan.fields])
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in plan.annotations:
                setattr(obj, name, row[position])
            result.append(obj)  # type: ignore[arg-type]
        return result

    def first(self, *args: Any) -> M | None:
        rows = self(*args)
        return rows[0] if rows else None

    def _compile(self, vendor: str) -> _Plan:
        queryset: Any = self._build(*self._sentinels).using(self._using)
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ValueError("CompiledQuery does not support prefetch_related.")
        compiler = queryset.query.get_compiler(using=self._using)
        # (Like the ORM, as_sql refuses select_for_update outside a transaction.)
        sql, params = compiler.as_sql()
        params = tuple(params)
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError("CompiledQuery does not support composite primary keys.")
        slots = []
        for index, sentinel in enumerate(self._sentinels):
            found = [i for i, value in enumerate(params) if value == sentinel]
            if not found:
                raise ValueError(f"sentinel {sentinel!r} does not reach the SQL unchanged")
            slots += [(position, index) for position in found]
        klass_info = compiler.klass_info
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        plan = _Plan(
            sql=sql,
            params=params,
            slots=tuple(slots),
            converters=tuple(compiler.get_converters(fields).items()),
            model=klass_info["model"],
            fields=slice(start, end),
            init_list=[column[0].target.attname for column in compiler.select[start:end]],
            populators=_related_populators(klass_info, compiler.select, self._using),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
            for_update=bool(queryset.query.select_for_update),
        )
        self._plans[vendor] = plan
        return plan


def _related_populators(klass_info: dict[str, Any], select: Any, using: str) -> list[Any]:
    # As ModelIterable does (django-stubs describe a later Django's signature).
    populators: list[Any] = django_query.get_related_populators(  # type: ignore[call-arg]
        klass_info, select, using
    )
    return populators


# The write half lives in games/write_batch.py (the file passed 800 lines); its public names
# are part of this module's interface.
from games.write_batch import (  # noqa: E402
    Ref,
    WriteBatch,
    batched,
    flush,
    insert,
    lock_rows,
    on_commit_grouped,
    update,
)

__all__ = [
    "CompiledQuery",
    "Ref",
    "WriteBatch",
    "batched",
    "flush",
    "insert",
    "lock_rows",
    "on_commit_grouped",
    "update",
]
