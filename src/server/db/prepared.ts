import { Column, is, sql, SQL, type DriverValueDecoder } from 'drizzle-orm';
import type { PgSession } from 'drizzle-orm/pg-core';
import type { Tx } from './client';

/**
 * A placeholder where a statement's query takes a value of type T (a day, an id, a limit): the query builder passes it
 * through as a parameter, filled when the statement runs.
 */
export const placeholder = <T = string>(name: string): T => sql.placeholder(name) as unknown as T;

/** What a built select gives: its SQL text and parameters, placeholders among them. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/** A decoder of one selected field: a column, a typed SQL expression, or an aliased one. */
type Field = Column | SQL | SQL.Aliased;

interface Statement<Row> {
  query: { sql: string; params: unknown[] };
  name: string;
  mapRows: (rows: unknown[][]) => Row[];
}

/**
 * Statements of one hot query (the Trade Log's page) in each of its shapes. The query builder runs
 * once per shape and process, with placeholders where the values go, instead of on every request: on PostgreSQL the
 * statement is also parsed once per connection (a named prepared statement, which a rollback does not undo). Its
 * rows arrive as arrays and become flat objects keyed like the selected fields, decoded as drizzle decodes them; the
 * builder's own mapping allocated several objects per column of every row.
 *
 * `build` gives the query and its selected fields, which must be a flat record in the order the select lists them.
 * Each shape's SQL must not depend on anything but the shape: every value goes in as a placeholder.
 */
export function preparedSelects<Row>(prefix: string) {
  const statements = new Map<string, Statement<Row>>();
  return function run(
    tx: Tx,
    shape: string,
    build: () => { query: BuiltQuery; fields: Record<string, Field> },
    values: Record<string, unknown>,
  ): Promise<Row[]> {
    let statement = statements.get(shape);
    if (!statement) {
      const { query, fields } = build();
      statement = { query: query.toSQL(), name: `${prefix}_${statements.size + 1}`, mapRows: rowMapper<Row>(fields) };
      statements.set(shape, statement);
    }
    const session = (tx as unknown as { _: { session: PgSession } })._.session;
    return session
      .prepareQuery(statement.query, undefined, statement.name, true, statement.mapRows as (rows: unknown[]) => Row[])
      .execute(values) as Promise<Row[]>;
  };
}

/** Array rows into objects: a null stays null, anything else goes through its field's decoder. */
function rowMapper<Row>(fields: Record<string, Field>): (rows: unknown[][]) => Row[] {
  const keys = Object.keys(fields);
  // An SQL expression's decoder is what `sql<T>` and `.mapWith` gave it (the identity unless told).
  const decoderOf = (expression: SQL) => (expression as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
  const decoders = Object.values(fields).map((field) => (is(field, Column) ? field : is(field, SQL) ? decoderOf(field) : decoderOf(field.sql)));
  // Each row starts as a copy of an object that already has every key: one allocation with the keys in place, where
  // setting 60-odd keys one by one on an empty object made it a dictionary twice the size.
  const template = Object.fromEntries(keys.map((key) => [key, null]));
  return (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = { ...template };
      for (let i = 0; i < keys.length; i++) {
        const raw = row[i];
        out[keys[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
      }
      return out as Row;
    });
}
