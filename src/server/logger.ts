import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout, one line per event. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { app: 'edgebook' } });
}
