"""Rows of one model written with SQL built once per model and set of columns: the
writes of every move and of the deadline sweep, which the ORM would compile again
for each statement (and its ``bulk_update`` writes a ``CASE`` per row and column).

On PostgreSQL many rows go in one statement as one array per column (``unnest``), a
single row as plain values, cheaper than arrays of one. Like ``QuerySet.update`` and
``bulk_create``, neither function sends ``pre_save`` or ``post_save`` signals; other
databases (the embedded SQLite) take the ORM's way.
"""

from functools import cache

from django.db import connection


def rows_update(rows: list, fields: tuple) -> None:
    """Write the columns of ``fields`` (field names) of ``rows``, saved instances of
    one model, as the instances hold them: one statement on PostgreSQL, one
    ``save(update_fields=…)`` per row elsewhere."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        for row in rows:
            row.save(update_fields=fields)
        return
    model: type = type(rows[0])  # not type[...]: mypy takes those for unhashable (python/mypy#11470)
    concrete = _fields(model, tuple(fields))
    values = [[field.get_db_prep_save(getattr(row, field.attname), connection) for field in concrete] for row in rows]
    with connection.cursor() as cursor:
        _execute_for_rows(cursor, _update_sql(model, tuple(fields), arrays=len(rows) > 1), values)


def rows_insert(rows: list, *, returning_pk: bool = False) -> None:
    """Insert ``rows``, new instances of one model, in one statement; with
    ``returning_pk`` each instance gets its primary key, as ``save`` gives it."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        for row in rows:
            row.save(force_insert=True)
        return
    model: type = type(rows[0])  # not type[...]: mypy takes those for unhashable (python/mypy#11470)
    fields = _inserted_fields(model)
    values = [[field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields] for row in rows]
    with connection.cursor() as cursor:
        _execute_for_rows(cursor, _insert_sql(model, returning_pk, arrays=len(rows) > 1), values)
        if returning_pk:
            for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
                row.pk = pk
                row._state.adding, row._state.db = False, connection.alias


def _execute_for_rows(cursor, sql: str, values: list) -> None:
    """Run ``sql`` with the ``values`` of each row (a list per row): a single row's
    as they are, many rows' as one list per column, the arrays ``unnest`` takes."""
    cursor.execute(sql, values[0] if len(values) == 1 else [list(column) for column in zip(*values, strict=True)])


@cache
def _fields(model, fields: tuple) -> list:
    """The fields named, then the primary key (last, as a single row's WHERE takes it)."""
    return [*(model._meta.get_field(name) for name in fields), model._meta.pk]


@cache
def _update_sql(model, fields: tuple, *, arrays: bool) -> str:
    quote = connection.ops.quote_name
    *changed, pk = _fields(model, fields)
    table = quote(model._meta.db_table)
    if not arrays:
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in changed)
        return f"UPDATE {table} SET {assignments} WHERE {quote(pk.column)} = %s"
    arrays_sql = ", ".join(f"%s::{field.db_type(connection)}[]" for field in (*changed, pk))
    names = ", ".join(quote(field.column) for field in (*changed, pk))
    assignments = ", ".join(f"{quote(field.column)} = new.{quote(field.column)}" for field in changed)
    return (
        f"UPDATE {table} SET {assignments} FROM unnest({arrays_sql}) AS new ({names}) "
        f"WHERE {table}.{quote(pk.column)} = new.{quote(pk.column)}"
    )


@cache
def _inserted_fields(model) -> list:
    """Every column but the primary key, which the database numbers."""
    return [field for field in model._meta.concrete_fields if field is not model._meta.pk]


@cache
def _insert_sql(model, returning_pk: bool, *, arrays: bool) -> str:
    quote = connection.ops.quote_name
    fields = _inserted_fields(model)
    if arrays:
        rows = f"SELECT * FROM unnest({', '.join(f'%s::{field.db_type(connection)}[]' for field in fields)})"
    else:
        rows = f"VALUES ({', '.join(['%s'] * len(fields))})"
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) {rows}"
    return f"{sql} RETURNING {quote(model._meta.pk.column)}" if returning_pk else sql
