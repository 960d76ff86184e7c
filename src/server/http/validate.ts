import type { Context } from 'hono';
import { z } from 'zod';
import { badRequest, HttpError } from './errors';
import { describeProblem, findInputProblem } from './input-guard';

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

/** Text no column can hold (NUL, lone surrogates) or JSON nested absurdly deep: a 400 naming the field. */
export function assertStorable(input: unknown, whole = 'body') {
  const problem = findInputProblem(input);
  if (problem) throw badRequest(describeProblem(problem, whole), { fields: [{ field: problem.field || whole, message: problem.message }] });
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/**
 * A body sent as anything but JSON is refused (415): a form on another site can post text/plain without asking the
 * browser first, and such a body must never be read as if it were JSON.
 */
export function assertJsonType(c: Context) {
  const type = c.req.header('content-type');
  if (type !== undefined && !JSON_TYPE.test(type)) {
    throw new HttpError(415, 'content-type: the request body must be application/json', { code: 'unsupported-media-type' });
  }
}

/** The body as JSON (assertJsonType), storable, checked by `schema`. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  assertJsonType(c);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest('Request body must be JSON');
  }
  assertStorable(body);
  return parseOrThrow(schema, body);
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const query = c.req.query();
  assertStorable(query, 'query');
  return parseOrThrow(schema, query);
}

export function readParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const params = c.req.param();
  assertStorable(params, 'path');
  return parseOrThrow(schema, params);
}

// Shared with the request schemas of the contract (src/contract/common.ts).
export { calendarDay } from '../../contract/common';
