import type { ConnectionInput } from '../../../contract/connections';
import { CREDENTIAL_OF, isExchangeProvider, type ProviderId } from '../../../contract/connections';
import type { Currency } from '../../../domain/reports/currency';
import type { ExchangeCredentials } from '../../connectors/exchanges';
import type { SecretBox } from './secret-box';

/**
 * What a connection keeps of the way its trader signed in, per kind of provider:
 *
 * - TopstepX: the user name, and the API key sealed.
 * - An exchange's API key and secret: both sealed together. The key is a login as well as a secret, so the row's login
 *   is a keyed digest of it (the same key connected twice is recognised) and the trader sees "API key ending in 7f3a".
 * - A wallet address (Hyperliquid): the address is the login, public as the chain it is on; nothing is secret, and the
 *   sealed text is empty.
 */
export interface Login {
  userName: string;
  displayName: string | null;
  /** What is sealed into the row. */
  secret: string;
}

export function loginOf(input: Pick<ConnectionInput, 'provider' | 'user_name' | 'api_key' | 'api_secret' | 'wallet_address'>, box: SecretBox): Login {
  switch (CREDENTIAL_OF[input.provider]) {
    case 'user-key':
      return { userName: input.user_name!, displayName: null, secret: input.api_key! };
    case 'key-secret':
      return {
        userName: `key:${box.fingerprint(input.api_key!).slice(0, 32)}`,
        displayName: `API key ending in ${input.api_key!.slice(-4)}`,
        secret: JSON.stringify({ apiKey: input.api_key, apiSecret: input.api_secret }),
      };
    case 'wallet':
      return { userName: input.wallet_address!, displayName: null, secret: '' };
  }
}

/** An exchange's credentials from a connection's login and opened secret. */
export function exchangeCredentialsOf(userName: string, opened: string): ExchangeCredentials {
  if (userName.startsWith('key:')) {
    const { apiKey, apiSecret } = JSON.parse(opened) as { apiKey: string; apiSecret: string };
    return { kind: 'key-secret', apiKey, apiSecret };
  }
  return { kind: 'wallet', address: userName };
}

/** The fields of the connect form a refusal of the provider names. */
export function credentialFields(provider: ProviderId): string[] {
  switch (CREDENTIAL_OF[provider]) {
    case 'user-key':
      return ['user_name', 'api_key'];
    case 'key-secret':
      return ['api_key', 'api_secret'];
    case 'wallet':
      return ['wallet_address'];
  }
}

/** The currency of a provider's account: an exchange's accounts are its settlement currencies; a futures broker's USD. */
export function currencyOfBrokerAccount(provider: string, externalId: string): Currency {
  if (isExchangeProvider(provider) && (externalId === 'USDT' || externalId === 'USDC')) return externalId;
  return 'USD';
}
