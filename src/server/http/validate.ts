import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest } from './errors';

/** Names the first bad field, e.g. "name: Account name is required", so a 400 always says what and where. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  // Messages the spec words for the trader (marked with `spec: true` in the schema) are shown as they are;
  // others are prefixed with the field so a 400 always says where.
  const asWritten = (issue as { params?: { spec?: boolean } }).params?.spec === true;
  throw badRequest(field && !asWritten ? `${field}: ${issue.message}` : issue.message, {
    fields: result.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
  });
}

export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest('Request body must be JSON');
  }
  return parseOrThrow(schema, body);
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseOrThrow(schema, c.req.query());
}

export function readParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseOrThrow(schema, c.req.param());
}
