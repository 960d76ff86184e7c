import { isSignedOutError, SIGNED_OUT_WORDS } from '../../lib/session-expiry';

export { toastError, toastSuccess } from '../../lib/toast';

/**
 * The server's message when it sent one meant for the trader, else nothing. A request refused because the session
 * ended says it in the spec's words for the action ('You must be logged in to create trading accounts').
 */
export function describeError(error: unknown, signedOut: string = SIGNED_OUT_WORDS.other): string | undefined {
  if (isSignedOutError(error)) return signedOut;
  return error instanceof Error && error.message && !/^Request failed/.test(error.message) ? error.message : undefined;
}
