/**
 * What a trader reads when an account is in sign-in back-off (server/auth/sign-in-limits.ts): the API's 429 and the
 * login page after a provider sign-in refused for the same reason say the same words.
 */
export const tooManyAttemptsMessage = (seconds: number) =>
  `Too many failed sign-in attempts for this account. Try again in ${seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`}.`;

/** The code a provider sign-in refused by the back-off comes back with (/auth-callback.html?error=...). */
export const TOO_MANY_ATTEMPTS_CODE = 'too_many_attempts';
