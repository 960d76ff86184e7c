import type { Context } from 'hono';
import { z } from 'zod';
import { readReportFilterParams } from '../../domain/reports/filter';
import { badRequest, HttpError } from './errors';
import { describeProblem, findInputProblem } from './input-guard';

/**
 * The field an issue is about, as a client names it: its dotted path, the key itself for an unknown key (zod puts
 * those on the object), or the whole input ('body', 'query', 'path') for an issue of the input as a whole.
 */
function fieldOf(issue: z.core.$ZodIssue, whole: string): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path.push(issue.keys[0]!);
  return path.join('.') || whole;
}

/**
 * Every request a contract schema reads goes through here (JSON bodies, query strings, path parameters, the text
 * fields of multipart forms, the import options), so what holds for one holds for all:
 * - text no column can hold (NUL, lone surrogates) is a 400 naming the field before the schema runs;
 * - a 400 names the first bad field: "name: Account name is required", or "body: ..." for the input as a whole.
 *   Messages the spec words for the trader (marked `spec: true` in the schema, such as the backup's 'Invalid file
 *   format: ...') are shown as they are, and `fields` still names the field for any client that reads it.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, whole = 'body'): z.infer<S> {
  assertStorable(input, whole);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = fieldOf(issue, whole);
  const asWritten = (issue as { params?: { spec?: boolean } }).params?.spec === true;
  const message = issue.code === 'unrecognized_keys' ? 'is not a field of this request' : issue.message;
  throw badRequest(asWritten ? message : `${field}: ${message}`, {
    fields: result.error.issues.map((i) => ({
      field: fieldOf(i, whole),
      message: i.code === 'unrecognized_keys' ? 'is not a field of this request' : i.message,
    })),
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
    throw badRequest('Request body must be JSON', { fields: [{ field: 'body', message: 'must be JSON' }] });
  }
  return parseOrThrow(schema, body, 'body');
}

export const readQuery = <S extends z.ZodType>(c: Context, schema: S): z.infer<S> => parseOrThrow(schema, c.req.query(), 'query');

/**
 * The query as the filter model reads it: lists from repeated parameters (?symbol=NQ&symbol=ES), the rest
 * from their last value, and the route's own parameters (`by`, `limit`, ...) beside them.
 */
export function readFilterQuery<S extends z.ZodType>(c: Context, schema: S, own: readonly string[] = []): z.infer<S> {
  const url = new URL(c.req.url);
  const raw: Record<string, unknown> = readReportFilterParams(url.searchParams);
  for (const key of own) {
    const value = url.searchParams.get(key);
    if (value !== null) raw[key] = value;
  }
  return parseOrThrow(schema, raw, 'query');
}

export const readParams = <S extends z.ZodType>(c: Context, schema: S): z.infer<S> => parseOrThrow(schema, c.req.param(), 'path');

// Shared with the request schemas of the contract (src/contract/common.ts).
export { calendarDay } from '../../contract/common';
