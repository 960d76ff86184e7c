/**
 * What an error log line may say about an error: its kind, the database's error code and the names of the objects
 * involved, the SQL text (placeholders only) and the stack frames. Never its message, parameters or detail: those
 * carry what the request sent (a PostgreSQL message quotes the bad value; drizzle's lists every parameter), and the
 * log is read by people who must not see a trader's notes or a reset token.
 */
export interface SafeError {
  type: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  query?: string;
  stack?: string;
  cause?: SafeError;
}

const PG_FIELDS = ['constraint', 'table', 'column', 'routine'] as const;

export function describeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error };
  const record = error as Error & Record<string, unknown>;
  const safe: SafeError = { type: error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name };
  if (typeof record.code === 'string' || typeof record.code === 'number') safe.code = String(record.code);
  for (const field of PG_FIELDS) if (typeof record[field] === 'string') safe[field] = record[field] as string;
  if (typeof record.query === 'string') safe.query = record.query.slice(0, 2000);
  // The first line of a stack is the message: keep the frames only.
  if (error.stack)
    safe.stack = error.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 15)
      .join('\n');
  if (record.cause !== undefined && depth < 3) safe.cause = describeError(record.cause, depth + 1);
  return safe;
}

/** Paths may carry secrets too: the password-reset link and a shared page have their token in the path. */
export function redactPath(path: string): string {
  return path.replace(/^(\/api\/auth\/reset-password\/)[^/]+/, '$1[redacted]').replace(/^(\/s\/)[^/]+/, '$1[redacted]');
}
