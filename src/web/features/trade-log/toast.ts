import { ApiError } from '../../lib/api';
import { isSignedOutError, SIGNED_OUT_WORDS } from '../../lib/session-expiry';

export { toastError, toastSuccess } from '../../lib/toast';

/**
 * The server's message when it sent one meant for the trader (`{ error }`), else nothing. A request refused because
 * the session ended says it in the spec's words for the action (`signedOut`).
 */
export function describeError(error: unknown, signedOut: string = SIGNED_OUT_WORDS.other): string | undefined {
  if (isSignedOutError(error)) return signedOut;
  return error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : undefined;
}

/**
 * The API could not be reached at all (fetch rejects with a TypeError), as opposed to an answer with an error status.
 * Only this shows the connection banner.
 */
export function isNetworkError(error: unknown): boolean {
  return error !== null && error !== undefined && !(error instanceof ApiError);
}
