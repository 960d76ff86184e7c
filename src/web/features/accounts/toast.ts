
export { toastError, toastSuccess } from '../../lib/toast';

/** The server's message when it sent one meant for the trader, else nothing. */
export function describeError(error: unknown): string | undefined {
  return error instanceof Error && error.message && !/^Request failed/.test(error.message) ? error.message : undefined;
}
