import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { uniqueEmail, type TestApp } from '../support/app';

// What the mentor tests share: reading rows past row-level security, and new users with their ids.

/** The rows of a statement run as the database's owner (no row-level security): what the tests check behind the API. */
export const ownerRows = async (app: TestApp, query: SQL) =>
  ((await app.server.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

/** A new user, signed up through the API: their client, id and email. */
export async function signedUpUser(app: TestApp, prefix: string) {
  const client = app.client();
  const email = uniqueEmail(prefix);
  const res = await client.signUp(email);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await ownerRows(app, sql`select id from "user" where email = ${email}`);
  return { client, id: String(row!.id), email };
}
