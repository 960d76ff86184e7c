import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * Checks a real response against its contract (src/contract): the status first, then the body against the
 * endpoint's strict schema, so a field the server adds, drops or retypes without the contract fails the test with
 * the path of the field. Returns the body as the contract types it.
 */
export function conforms<S extends z.ZodType>(schema: S, res: { status: number; body: unknown }, status = 200): z.infer<S> {
  expect(res.status, JSON.stringify(res.body)?.slice(0, 300)).toBe(status);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    throw new Error(`the response does not match its contract: ${where}\n${JSON.stringify(res.body).slice(0, 1000)}`);
  }
  return parsed.data;
}
