import crypto from 'node:crypto';

/**
 * Broker API keys at rest: AES-256-GCM with a key derived from the server's AUTH_SECRET by HKDF-SHA256 under
 * its own purpose label, so the key that signs sessions is never the one that encrypts, and each purpose gets its
 * own. Every ciphertext is bound to its row (the additional data names the connection and its owner): copied into
 * another row or another trader's, it no longer opens. A new random 96-bit nonce per seal.
 *
 * Sealed text: `v1.<nonce>.<tag>.<ciphertext>`, base64url. A changed AUTH_SECRET cannot open old keys: the trader is
 * asked for the key again (SecretUnreadable).
 */

const PURPOSE = 'edgebook/broker-connections/api-key/v1';
const SALT = 'edgebook';

export class SecretUnreadable extends Error {
  constructor() {
    super('The saved API key can no longer be read');
    this.name = 'SecretUnreadable';
  }
}

export interface SecretBox {
  seal(plaintext: string, boundTo: string): string;
  open(sealed: string, boundTo: string): string;
  /**
   * A keyed digest of a secret that is also a login (an exchange's API key), hex: the same key gives the same digest, so
   * a second connection of it is recognised, and nothing about the key can be read back from it.
   */
  fingerprint(secret: string): string;
}

/** The fingerprints' own key, derived under its own label: never the encryption key. */
const FINGERPRINT_PURPOSE = 'edgebook/broker-connections/login-fingerprint/v1';

export function createSecretBox(authSecret: string): SecretBox {
  const key = Buffer.from(crypto.hkdfSync('sha256', authSecret, SALT, PURPOSE, 32));
  const fingerprintKey = Buffer.from(crypto.hkdfSync('sha256', authSecret, SALT, FINGERPRINT_PURPOSE, 32));
  return {
    fingerprint: (secret) => crypto.createHmac('sha256', fingerprintKey).update(secret, 'utf8').digest('hex'),
    seal(plaintext, boundTo) {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', nonce, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed, boundTo) {
      const [version, nonce, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || nonce === undefined || tag === undefined || ciphertext === undefined) throw new SecretUnreadable();
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        decipher.setAAD(Buffer.from(boundTo, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadable();
      }
    },
  };
}

/** What a connection's ciphertext is bound to. */
export const secretBinding = (connectionId: string, userId: string) => `broker_connections:${connectionId}:${userId}`;
