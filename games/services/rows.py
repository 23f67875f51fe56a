"""Changed columns of many rows of one model, written in one statement.

The deadline sweep moves a chunk of games at once, and each game's new version,
snapshot and clock differ: an ``UPDATE`` per game made the sweep wait on a round
trip per game, and Django's ``bulk_update`` builds a ``CASE`` per column and row,
which costs more than the statements it saves. On PostgreSQL the rows' values go
as one array per column, unnested against the primary keys, so one statement
writes a whole chunk. A single row (a player's move) goes as plain values, which
psycopg quotes faster than arrays. Either text depends only on the model and the
columns and is built once, not compiled again for every move.

Like ``QuerySet.update``, this sends no ``pre_save`` or ``post_save`` signal.
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
    model = type(rows[0])
    concrete = _fields(model, tuple(fields))
    values = [[field.get_db_prep_save(getattr(row, field.attname), connection) for field in concrete] for row in rows]
    with connection.cursor() as cursor:
        if len(rows) == 1:
            pk, *changed = values[0]
            cursor.execute(_row_update_sql(model, tuple(fields)), [*changed, pk])
        else:
            cursor.execute(_rows_update_sql(model, tuple(fields)), [list(column) for column in zip(*values)])


@cache
def _fields(model, fields: tuple) -> list:
    """The primary key, then the fields named."""
    return [model._meta.pk, *(model._meta.get_field(name) for name in fields)]


@cache
def _row_update_sql(model, fields: tuple) -> str:
    quote = connection.ops.quote_name
    pk, *changed = _fields(model, fields)
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in changed)
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote(pk.column)} = %s"


@cache
def _rows_update_sql(model, fields: tuple) -> str:
    quote = connection.ops.quote_name
    concrete = _fields(model, fields)
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in concrete)
    names = ", ".join(quote(field.column) for field in concrete)
    assignments = ", ".join(f"{quote(field.column)} = new.{quote(field.column)}" for field in concrete[1:])
    table, pk = quote(model._meta.db_table), quote(concrete[0].column)
    return (
        f"UPDATE {table} SET {assignments} FROM unnest({arrays}) AS new ({names}) "
        f"WHERE {table}.{pk} = new.{pk}"
    )
