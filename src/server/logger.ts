import cluster from 'node:cluster';
import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout, one line per event. */
export function createLogger(level: string): Logger {
  // Under WEB_CONCURRENCY each line says which worker process wrote it.
  return pino({ level, base: { app: 'edgebook', ...(cluster.isWorker && { worker: cluster.worker?.id }) } });
}
