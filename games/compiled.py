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

import datetime
import functools
import itertools
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Generic, TypeVar, cast

from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connections,
    models,
    transaction,
)
from django.db.models import Field, Model, QuerySet, signals
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


# --- INSERT and UPDATE of one object, and writes gathered into one statement ------------
#
# A move writes six rows (the game's UPDATE, the move, its stream event, the Idempotency-Key
# record, the next player's notification and its account event) and locks one account. One
# statement each costs a round trip and PostgreSQL's and psycopg's work per statement, which
# measured more than the rows themselves (docs/performance.md). Inside ``batched()`` the
# writes of :func:`insert`, :func:`update` and :func:`lock_rows` are gathered and sent as
# ONE statement of data-modifying CTEs when the block ends, or as soon as anything else is
# sent on the connection (a read, a savepoint, an ORM save), so that every statement sees
# the writes asked for before it, as if each had run at once.


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


def insert(
    obj: Model, *, on_conflict: Sequence[str] | None = None, using: str = DEFAULT_DB_ALIAS
) -> None:
    """``obj.save()`` of a new object, as one ``INSERT ... RETURNING`` whose SQL is built
    once per model; inside :func:`batched`, part of the batch's statement.

    ``on_conflict``: the fields of a unique constraint (``()``: any); a row that would
    break it is not written and ``obj.pk`` stays None (``ON CONFLICT DO NOTHING``; in a
    batch, known once the batch is flushed).

    Falls back to ``obj.save(force_insert=True)`` (after flushing the batch) whenever the
    shortcut would not do exactly what it does: a primary key already set, multi-table
    inheritance, ``pre_save``/``post_save`` receivers, an expression among the values, a
    database other than PostgreSQL or SQLite (with ``RETURNING``)."""
    model = type(obj)
    connection = connections[using]
    conflict = None if on_conflict is None else tuple(on_conflict)
    plan = None
    if not (
        obj.pk is not None
        or model._meta.parents
        or connection.vendor not in ("postgresql", "sqlite")
        or not connection.features.can_return_columns_from_insert
        or _has_receivers(model)
    ):
        plan = _insert_plan(model, connection, using, conflict)
    batch = _batch_of(connection)
    fields = plan.fields if plan is not None else model._meta.local_concrete_fields
    # Refs to objects already written become their keys now; the others wait in the batch.
    pending = [slot for slot in _ref_slots(fields, obj) if not _resolve_if_written(obj, slot)]
    if (
        batch is not None
        and plan is not None
        and all(batch.holds_insert(ref.obj) for _, _, ref in pending)
    ):
        values = _params(plan, obj, connection, adding=True, refs=pending)
        if values is not None:
            batch.add_insert(obj, plan, values, pending, conflict)
            return
    if batch is not None:
        batch.flush()
        pending = [slot for slot in pending if not _resolve_if_written(obj, slot)]
    if pending:
        raise ValueError(f"{pending[0][2]!r}: the object it points at is not written yet")
    params = _params(plan, obj, connection, adding=True) if plan is not None else None
    if plan is None or params is None:
        _save_new(obj, conflict, using)
        return
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, params)
        row = cursor.fetchone()
    if row is None:  # ON CONFLICT DO NOTHING: not written
        return
    _set_returned(obj, plan, row, using)


def update(obj: Model, fields: Sequence[str], *, using: str = DEFAULT_DB_ALIAS) -> None:
    """``obj.save(update_fields=fields)`` as one ``UPDATE`` whose SQL is built once per
    model and field list; inside :func:`batched`, part of the batch's statement (same
    fallbacks as :func:`insert`; a row that is gone raises ``DatabaseError`` as ``save``
    does, in a batch when it is flushed)."""
    model = type(obj)
    connection = connections[using]
    meta = model._meta
    batch = _batch_of(connection)
    if meta.parents or _has_receivers(model):
        if batch is not None:
            batch.flush()
        obj.save(update_fields=fields, using=using)
        return
    key = ("update", model, tuple(fields), using, connection.vendor)
    plan = _WRITE_PLANS.get(key)
    if plan is None:
        chosen: tuple[Any, ...] = tuple(meta.get_field(name) for name in fields)
        _refuse_placeholders(chosen)
        quote = connection.ops.quote_name
        plan = _WRITE_PLANS[key] = _WritePlan(
            sql=(
                f"UPDATE {quote(meta.db_table)} SET "
                f"{', '.join(f'{quote(f.column)} = %s' for f in chosen)} "
                f"WHERE {quote(str(meta.pk.column))} = %s"
            ),
            fields=chosen,
            returning=(),
            shortcuts=tuple(_shortcut(f, connection) for f in chosen),
        )
    params = _params(plan, obj, connection, adding=False)
    if batch is not None:
        if params is not None and not batch.holds(obj):
            params.append(meta.pk.get_db_prep_value(obj.pk, connection))
            batch.add_update(obj, plan, params)
            return
        batch.flush()  # the row's INSERT or UPDATE waits in it: one statement cannot do both
    if params is None:
        obj.save(update_fields=fields, using=using)
        return
    params.append(meta.pk.get_db_prep_value(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    obj._state.db = using


def lock_rows(model: type[Model], pks: Iterable[Any], *, using: str = DEFAULT_DB_ALIAS) -> None:
    """Lock these rows until the transaction ends (``SELECT ... FOR UPDATE``, in primary key
    order, so that two writers locking overlapping sets cannot deadlock).

    Inside :func:`batched`, part of the batch's statement: every INSERT added to the batch
    after it runs (and takes its id from its sequence) only once the rows are locked, as
    it would if the lock were its own statement before it."""
    ids = sorted(set(pks))
    if not ids:
        return
    connection = connections[using]
    batch = _batch_of(connection)
    if batch is not None:
        batch.add_lock(model, ids)
        return
    list(
        model._base_manager.using(using)
        .select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def flush(using: str = DEFAULT_DB_ALIAS) -> None:
    """Send what the current batch holds now (nothing to do outside :func:`batched`)."""
    batch = _batch_of(connections[using])
    if batch is not None:
        batch.flush()


T = TypeVar("T")


def on_commit_grouped(
    group: Callable[[list[T]], None], item: T, *, using: str = DEFAULT_DB_ALIAS
) -> None:
    """``transaction.on_commit`` of ``group([item])``; inside :func:`batched`, the items given
    for one ``group`` are gathered and it runs once after commit, on all of them (one Redis
    round trip for every wake-up a move publishes, say)."""
    batch = _batch_of(connections[using])
    if batch is None:
        transaction.on_commit(functools.partial(group, [item]), using=using)
    else:
        batch.groups.setdefault(group, []).append(item)


@contextmanager
def batched(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Gather the block's :func:`insert`, :func:`update` and :func:`lock_rows` into one
    statement, sent when the block ends or before any other statement on the connection.

    Only on PostgreSQL (data-modifying CTEs); elsewhere the block runs as it would
    without. Inside another block, the outer batch gathers the writes and sends them when
    the inner block ends. Must run inside a transaction. When the block raises,
    the writes it asked for are still sent (a caller may go on with the transaction) unless
    the error is the database's own (the transaction is broken then: nothing to send)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    outer = _batch_of(connection)
    if outer is not None:
        # Inside another block: its batch gathers this block's writes too, and sends them
        # when this block ends, as this block's caller may read what they returned.
        try:
            yield
        except DatabaseError:
            raise  # the outer block discards them
        except BaseException:
            outer.flush()
            raise
        outer.flush()
        return
    if connection.get_autocommit():
        raise TransactionManagementError("batched() needs a transaction (transaction.atomic).")
    batch = WriteBatch(connection, using)
    setattr(connection, _BATCH_ATTRIBUTE, batch)
    try:
        with connection.execute_wrapper(batch.before_statement):
            try:
                yield
            except DatabaseError:
                batch.discard()
                raise
            except BaseException:
                batch.flush()
                raise
            batch.flush()
    finally:
        setattr(connection, _BATCH_ATTRIBUTE, None)


_BATCH_ATTRIBUTE = "_indulgence_write_batch"


def _batch_of(connection: Any) -> WriteBatch | None:
    batch: WriteBatch | None = getattr(connection, _BATCH_ATTRIBUTE, None)
    return batch


@dataclass
class _Item:
    shape: tuple[Any, ...]  # everything its SQL depends on, its kind first
    params: list[Any]
    obj: Model | None = None
    plan: _WritePlan | None = None
    refs: list[_RefSlot] = dataclass_field(default_factory=list)

    @property
    def kind(self) -> str:
        """``insert``, ``update`` or ``lock``."""
        return str(self.shape[0])


class WriteBatch:
    """The writes of a :func:`batched` block not sent yet (one per connection)."""

    def __init__(self, connection: Any, using: str) -> None:
        self.connection = connection
        self.using = using
        self.items: list[_Item] = []
        self.groups: dict[Callable[[list[Any]], None], list[Any]] = {}
        self._position: dict[int, int] = {}  # id(obj) -> its INSERT's item
        self._updated: set[tuple[type[Model], Any]] = set()
        self._locks: list[int] = []

    def holds_insert(self, obj: Model) -> bool:
        return id(obj) in self._position

    def holds(self, obj: Model) -> bool:
        """Whether the object's INSERT or an UPDATE of its row waits here."""
        return id(obj) in self._position or (type(obj), obj.pk) in self._updated

    def add_insert(
        self,
        obj: Model,
        plan: _WritePlan,
        params: list[Any],
        refs: list[_RefSlot],
        conflict: tuple[str, ...] | None,
    ) -> None:
        kinds: list[Any] = []
        values: list[Any] = []
        by_field: dict[Any, list[tuple[str | None, Ref]]] = {}
        for slot_field, key, ref in refs:
            by_field.setdefault(slot_field, []).append((key, ref))
        for plan_field, param in zip(plan.fields, params, strict=True):
            slots = by_field.get(plan_field)
            if not slots:
                kinds.append("p")
                values.append(param)
            elif slots[0][0] is None:  # the field's own value
                kinds.append(("r", self._position[id(slots[0][1].obj)]))
            else:
                kinds.append(("j", tuple((self._position[id(ref.obj)]) for _, ref in slots)))
                values.append(param)
                values.extend([[key] for key, _ in slots])
        shape = ("insert", plan, tuple(kinds), conflict, tuple(self._locks))
        self._position[id(obj)] = len(self.items)
        self.items.append(_Item(shape, values, obj, plan, refs))

    def add_update(self, obj: Model, plan: _WritePlan, params: list[Any]) -> None:
        self._updated.add((type(obj), obj.pk))
        self.items.append(_Item(("update", plan), params, obj, plan))

    def add_lock(self, model: type[Model], ids: list[Any]) -> None:
        self._locks.append(len(self.items))
        self.items.append(_Item(("lock", model), [ids]))

    def before_statement(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        if self.items:
            self.flush()
        return execute(sql, params, many, context)

    def discard(self) -> None:
        self.items, self.groups = [], {}
        self._position, self._updated, self._locks = {}, set(), []

    def flush(self) -> None:
        items, groups = self.items, self.groups
        self.discard()
        if items:
            sql = _batch_sql(self.connection, items)
            params = [param for item in items for param in item.params]
            self._apply(items, _execute_numbered(self.connection, sql, params))
        for group, grouped in groups.items():
            transaction.on_commit(functools.partial(group, grouped), using=self.using)

    def _apply(self, items: list[_Item], row: Sequence[Any]) -> None:
        column = 0
        for item in items:
            if item.kind == "insert":
                assert item.plan is not None
                assert item.obj is not None
                width = len(item.plan.returning)
                returned = row[column : column + width]
                column += width
                if returned[0] is not None:  # None: ON CONFLICT DO NOTHING skipped it
                    _set_returned(item.obj, item.plan, returned, self.using)
                for slot in item.refs:
                    _resolve_if_written(item.obj, slot)
            else:
                if item.kind == "update":
                    assert item.obj is not None
                    if row[column] != 1:
                        raise DatabaseError("Save with update_fields did not affect any rows.")
                    item.obj._state.db = self.using
                column += 1


_BATCH_SQL: dict[tuple[Any, ...], str] = {}


def _batch_sql(connection: Any, items: list[_Item]) -> str:
    key = (connection.vendor, *(item.shape for item in items))
    sql = _BATCH_SQL.get(key)
    if sql is None:
        numbers = itertools.count(1)
        sql = _BATCH_SQL[key] = re.sub(
            "%s", lambda _: f"${next(numbers)}", _build_batch_sql(connection, items)
        )
    return sql


def _execute_numbered(connection: Any, sql: str, params: list[Any]) -> Sequence[Any]:
    """Run a statement written with ``$1, $2, ...`` placeholders and return its one row.

    psycopg sends such SQL as it is (``RawCursor``); its usual conversion of ``%s``
    placeholders is cached only for statements of at most 4096 bytes and 50 parameters,
    and a batch's statement is longer: it was parsed again on every move (8% of a move's
    CPU). Runs inside Django's error translation and appears in its query log."""
    import psycopg

    connection.validate_no_broken_transaction()
    started = time.monotonic()
    with connection.wrap_database_errors:
        cursor = psycopg.RawCursor(connection.connection)
        try:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        finally:
            cursor.close()
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})
    assert row is not None  # a SELECT of scalar subqueries: always one row
    return row


def _build_batch_sql(connection: Any, items: list[_Item]) -> str:
    """The batch's statement: one CTE per item (all names and types come from the models,
    every value is a parameter), and a SELECT of what each returns, in item order."""
    quote = connection.ops.quote_name
    ctes: list[str] = []
    results: list[str] = []

    def returned(position: int, column: str) -> str:
        return f"(SELECT {quote(column)} FROM w{position})"

    for position, item in enumerate(items):
        name = f"w{position}"
        if item.kind == "lock":
            model = item.shape[1]
            meta = model._meta
            pk = quote(str(meta.pk.column))
            pk_type = _cast_type(meta.pk, connection)
            ctes.append(
                f"{name} AS MATERIALIZED (SELECT {pk} FROM {quote(meta.db_table)} "
                f"WHERE {pk} = ANY(CAST(%s AS {pk_type}[])) ORDER BY {pk} FOR UPDATE)"
            )
            results.append(f"(SELECT count(*) FROM {name})")
            continue
        plan = item.plan
        assert plan is not None
        if item.kind == "update":
            ctes.append(f"{name} AS ({plan.sql} RETURNING 1)")
            results.append(f"(SELECT count(*) FROM {name})")
            continue
        _, _, kinds, conflict, locks = item.shape
        meta = plan.fields[0].model._meta
        exprs = []
        for sql_type, kind in zip(plan.casts, kinds, strict=True):
            if kind == "p":
                exprs.append(f"CAST(%s AS {sql_type})")
            elif kind[0] == "r":
                target = items[kind[1]].obj
                assert target is not None
                exprs.append(returned(kind[1], str(target._meta.pk.column)))
            else:  # a JSON document with keys to fill in: as jsonb, then the column's type
                expr = "CAST(%s AS jsonb)"
                for target_position in kind[1]:
                    target = items[target_position].obj
                    assert target is not None
                    pk_of = returned(target_position, str(target._meta.pk.column))
                    expr = f"jsonb_set({expr}, CAST(%s AS text[]), to_jsonb({pk_of}))"
                exprs.append(f"CAST({expr} AS {sql_type})")
        where = ""
        if locks:
            counted = " + ".join(f"(SELECT count(*) FROM w{lock})" for lock in locks)
            where = f" WHERE {counted} >= 0"  # a one-time filter: the locks come first
        on_conflict = _on_conflict_sql(meta.model, conflict, quote)
        columns = ", ".join(quote(str(f.column)) for f in plan.fields)
        returning = ", ".join(quote(str(f.column)) for f in plan.returning)
        ctes.append(
            f"{name} AS (INSERT INTO {quote(meta.db_table)} ({columns}) "
            f"SELECT {', '.join(exprs)}{where}{on_conflict} RETURNING {returning})"
        )
        results += [returned(position, str(f.column)) for f in plan.returning]
    return f"WITH {', '.join(ctes)} SELECT {', '.join(results)}"


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
