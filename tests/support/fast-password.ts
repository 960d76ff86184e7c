import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { PasswordHashing } from '../../src/server/auth/auth';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: string, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/**
 * The test servers' password hashing: scrypt as better-auth's, at a sixteenth of its cost (N=1024, r=8 instead of
 * N=16384, r=16). Each sign-up and sign-in paid ~170 ms of hashing on a 2-core CI machine, a third of the API suite's
 * time. The suites that are about signing in (auth-smtp, two-factor, smoke) and every spawned server keep the real one.
 */
export const fastPasswordHashing: PasswordHashing = {
  async hash(password) {
    const salt = crypto.randomBytes(16).toString('hex');
    return `${salt}:${(await derive(password, salt)).toString('hex')}`;
  },
  async verify({ hash, password }) {
    const [salt, key] = hash.split(':');
    if (!salt || !key) return false;
    const expected = Buffer.from(key, 'hex');
    const actual = await derive(password, salt);
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  },
};

function derive(password: string, salt: string): Promise<Buffer> {
  return scrypt(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
}
