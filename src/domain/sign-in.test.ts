import { describe, expect, it } from 'vitest';
import { tooManyAttemptsMessage } from './sign-in';

// The words of a sign-in refused by the account's back-off, on the API and the login page.
describe('tooManyAttemptsMessage', () => {
  it('says seconds (one second) under two minutes, then whole minutes rounded up', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many failed sign-in attempts for this account. Try again in 1 second.');
    expect(tooManyAttemptsMessage(119)).toBe('Too many failed sign-in attempts for this account. Try again in 119 seconds.');
    expect(tooManyAttemptsMessage(120)).toBe('Too many failed sign-in attempts for this account. Try again in 2 minutes.');
    expect(tooManyAttemptsMessage(900)).toBe('Too many failed sign-in attempts for this account. Try again in 15 minutes.');
    expect(tooManyAttemptsMessage(121)).toBe('Too many failed sign-in attempts for this account. Try again in 3 minutes.');
  });
});
