import { textProblem } from '../../domain/text';

/**
 * What no field of any request may carry, whatever its schema says: PostgreSQL refuses a NUL character in text and
 * a lone UTF-16 surrogate in jsonb, and deep nesting costs stack in every layer that walks it. Each of these reached
 * the database before and failed there as a 500; found here, they are a 400 that names the field.
 */

/** Deeper than any setting, widget layout or backup row needs. */
export const MAX_JSON_DEPTH = 32;

export interface InputProblem {
  /** Dotted path of the field, e.g. `trades.0.notes`; empty for the value itself. */
  field: string;
  message: string;
}

/** The first field of a parsed JSON value (or a query/params record) that no handler can store, or null. */
export function findInputProblem(value: unknown, path: string[] = []): InputProblem | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { field: path.join('.'), message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (path.length >= MAX_JSON_DEPTH) return { field: path.join('.'), message: `must not be nested more than ${MAX_JSON_DEPTH} levels deep` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findInputProblem(value[i], [...path, String(i)]);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyMessage = textProblem(key);
    if (keyMessage) return { field: path.join('.') || 'body', message: `keys ${keyMessage}` };
    const problem = findInputProblem(item, [...path, key]);
    if (problem) return problem;
  }
  return null;
}

/** `field: message`, or the message alone for the whole value. */
export const describeProblem = (problem: InputProblem, whole = 'body') => `${problem.field || whole}: ${problem.message}`;
