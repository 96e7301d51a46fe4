"""INSERT and UPDATE of one object with SQL built once per model, and writes gathered into
one statement (:func:`batched`). Moved out of :mod:`games.compiled`, which re-exports every
public name, so callers keep importing them from there."""

from __future__ import annotations

import functools
import itertools
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar

from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    connections,
    transaction,
)
from django.db.models import Model
from django.db.transaction import TransactionManagementError

from games.write_plans import (
    _WRITE_PLANS,
    Ref,
    _cast_type,
    _has_receivers,
    _insert_plan,
    _on_conflict_sql,
    _params,
    _ref_slots,
    _RefSlot,
    _refuse_placeholders,
    _resolve_if_written,
    _save_new,
    _set_returned,
    _shortcut,
    _WritePlan,
)

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
