import type { ConnectionInput, ConnectionTest } from '../../../contract/connections';
import { CREDENTIAL_OF, type ProviderId } from '../../../domain/connections/providers';

/**
 * What the Connect form holds while the trader types: the provider chosen (and, for ProjectX, the firm whose gateway the
 * key is for), the fields of its way of connecting (a user name and API key, an API key and its secret, or a wallet
 * address), which of them were left empty on a try, and the last test's answer or failure.
 */
export interface ConnectFormState {
  provider: ProviderId;
  /** The ProjectX firm ('configured': the server's own gateway). */
  firm: string;
  userName: string;
  apiKey: string;
  apiSecret: string;
  wallet: string;
  /** Fields a Test or Connect found empty: each says so until filled. */
  missing: ReadonlySet<ConnectField>;
  tested: ConnectionTest | null;
  error: string | null;
}

export type ConnectField = 'userName' | 'apiKey' | 'apiSecret' | 'wallet';

export type ConnectFormAction =
  | { type: 'choose-provider'; provider: ProviderId }
  | { type: 'choose-firm'; firm: string }
  | { type: 'type'; field: ConnectField; value: string }
  | { type: 'tried'; missing: ConnectField[] }
  | { type: 'tested'; tested: ConnectionTest }
  | { type: 'failed'; error: string }
  | { type: 'connected' };

/** The server's own ProjectX gateway (PROJECTX_API_URL), the firm chosen until the trader picks another. */
export const CONFIGURED_FIRM = 'configured';

export const initialConnectForm = (provider: ProviderId): ConnectFormState => ({
  provider,
  firm: CONFIGURED_FIRM,
  userName: '',
  apiKey: '',
  apiSecret: '',
  wallet: '',
  missing: new Set(),
  tested: null,
  error: null,
});

/** The fields each way of connecting asks for, in the order shown. */
export const FIELDS_OF = { 'user-key': ['userName', 'apiKey'], 'key-secret': ['apiKey', 'apiSecret'], wallet: ['wallet'] } as const satisfies Record<
  (typeof CREDENTIAL_OF)[ProviderId],
  readonly ConnectField[]
>;

export function connectFormReducer(state: ConnectFormState, action: ConnectFormAction): ConnectFormState {
  switch (action.type) {
    case 'choose-provider':
      // Another provider takes other fields: what was typed for the last one is not sent to this one.
      return action.provider === state.provider ? state : initialConnectForm(action.provider);
    case 'choose-firm':
      // Another firm's gateway has its own users and keys: the last test says nothing of this one.
      return action.firm === state.firm ? state : { ...state, firm: action.firm, tested: null, error: null };
    case 'type': {
      const missing = new Set(state.missing);
      if (action.value.trim() !== '') missing.delete(action.field);
      return { ...state, [action.field]: action.value, missing };
    }
    case 'tried':
      return { ...state, missing: new Set(action.missing), error: null, tested: action.missing.length > 0 ? state.tested : null };
    case 'tested':
      return { ...state, tested: action.tested, error: null };
    case 'failed':
      return { ...state, error: action.error, tested: null };
    case 'connected':
      // The secrets leave the form as soon as the server holds them.
      return { ...state, apiKey: '', apiSecret: '', tested: null, error: null };
  }
}

/** The request the fields make, or the fields still empty. */
export function connectionInputOf(state: ConnectFormState): { input: ConnectionInput } | { missing: ConnectField[] } {
  const fields = FIELDS_OF[CREDENTIAL_OF[state.provider]];
  const missing = fields.filter((field) => state[field].trim() === '');
  if (missing.length > 0) return { missing };
  switch (CREDENTIAL_OF[state.provider]) {
    case 'user-key':
      return {
        input: {
          provider: state.provider,
          ...(state.firm !== CONFIGURED_FIRM && { firm: state.firm }),
          user_name: state.userName.trim(),
          api_key: state.apiKey.trim(),
        },
      };
    case 'key-secret':
      return { input: { provider: state.provider, api_key: state.apiKey.trim(), api_secret: state.apiSecret.trim() } };
    case 'wallet':
      return { input: { provider: state.provider, wallet_address: state.wallet.trim() } };
  }
}
