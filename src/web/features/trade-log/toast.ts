import { ApiError } from '../../lib/api';

export { toastError, toastSuccess } from '../../lib/toast';

/** The server's message when it sent one meant for the trader (`{ error }`), else nothing. */
export function describeError(error: unknown): string | undefined {
  return error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : undefined;
}

/**
 * The API could not be reached at all (fetch rejects with a TypeError), as opposed to an answer with an error status.
 * Only this shows the connection banner (part 2 §4 "Connection state").
 */
export function isNetworkError(error: unknown): boolean {
  return error !== null && error !== undefined && !(error instanceof ApiError);
}
