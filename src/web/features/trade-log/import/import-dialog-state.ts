import type { ColumnMapping } from '../../../../domain/importers';
import type { TradingAccount } from '../../../shared/api';
import { SELECT_ACCOUNT_MESSAGE } from './account-picker';
import type { ImportPreview } from './api';
import { guessMapping } from './column-mapping';
import { SKIP } from './file-accounts';

/** The format choice that lets the server detect the file's format. */
export const AUTO = 'auto';
/** The format choice of a column mapping made by the trader. */
export const MAPPED = 'mapped';

/** Bytes sent and total of the request being uploaded, or null when none is. */
export type Upload = { sent: number; total: number } | null;

/** The file as the browser reads it: its progress, its bytes, or the failure. */
export type FileRead = { status: 'reading'; percent: number } | { status: 'read'; bytes: ArrayBuffer } | { status: 'failed' };

/** What the import dialog holds: the file's reading and uploads, and each choice the trader makes before confirming. */
export interface ImportDialogState {
  file: FileRead;
  /** AUTO, MAPPED or a format's id. */
  format: string;
  /** The zone naive times are read in, once the trader picks one (until then the server chooses and says which). */
  zoneChoice: string | null;
  /** The trading account chosen; undefined until the trader (or a remembered account) chooses one. */
  accountChoice: string | null | undefined;
  /** An account created in this dialog, so the page can show its trades at once. */
  createdAccountId: string | null;
  /** A file account's name -> trading account id, or SKIP to leave it out. */
  accountMap: Readonly<Record<string, string>>;
  accountError: string | null;
  /** The trader agreed to import the readable trades and skip the unreadable rows. */
  skipUnreadable: boolean;
  /** The setup and playbook given to every trade of the file (the file says each trade's side). */
  setup: string | null;
  playbookId: string | null;
  /** The trader's column mapping, and the header row it maps. */
  mapping: ColumnMapping | null;
  mapHeaders: string[] | null;
  /** The mapping was offered because no format read the file (not chosen by the trader for a file we know). */
  unknownFile: boolean;
  previewUpload: Upload;
  commitUpload: Upload;
}

export type ImportDialogAction =
  | { type: 'read-progress'; percent: number }
  | { type: 'read'; bytes: ArrayBuffer }
  | { type: 'read-failed' }
  /** `known`: the header row and mapping the last preview (or the refusal of an unknown file) gave, if any. */
  | { type: 'choose-format'; format: string; known: { headers?: string[]; mapping?: ColumnMapping | null } }
  /** No format read the file: its columns, to be mapped. */
  | { type: 'unknown-format'; headers: string[] }
  | { type: 'edit-mapping'; headers: string[]; mapping: ColumnMapping }
  | { type: 'choose-zone'; zone: string }
  | { type: 'choose-account'; accountId: string | null }
  /** A one-account file goes where it went last time, unless the trader chose already. */
  | { type: 'remembered-account'; accountId: string }
  | { type: 'account-created'; accountId: string }
  | { type: 'map-file-account'; name: string; accountId: string }
  | { type: 'refuse-without-account' }
  | { type: 'consent-skip'; skip: boolean }
  | { type: 'choose-setup'; setup: string | null }
  | { type: 'choose-playbook'; playbookId: string | null }
  | { type: 'preview-upload'; upload: Upload }
  | { type: 'commit-upload'; upload: Upload };

export const INITIAL_IMPORT_DIALOG: ImportDialogState = {
  file: { status: 'reading', percent: 0 },
  format: AUTO,
  zoneChoice: null,
  accountChoice: undefined,
  createdAccountId: null,
  accountMap: {},
  accountError: null,
  skipUnreadable: false,
  setup: null,
  playbookId: null,
  mapping: null,
  mapHeaders: null,
  unknownFile: false,
  previewUpload: null,
  commitUpload: null,
};

export function reduceImportDialog(state: ImportDialogState, action: ImportDialogAction): ImportDialogState {
  switch (action.type) {
    case 'read-progress':
      return state.file.status === 'reading' ? { ...state, file: { status: 'reading', percent: action.percent } } : state;
    case 'read':
      return { ...state, file: { status: 'read', bytes: action.bytes } };
    case 'read-failed':
      return { ...state, file: { status: 'failed' } };
    case 'choose-format': {
      const { format, known } = action;
      if (format === MAPPED) {
        // Map the columns of the file: those mapped already, else those the server read, with a first guess.
        const headers = state.mapHeaders ?? known.headers ?? [];
        if (headers.length === 0) return { ...state, format };
        return { ...state, format, mapHeaders: headers, mapping: state.mapping ?? known.mapping ?? guessMapping(headers) };
      }
      return format === AUTO ? { ...state, format } : { ...state, format, mapping: null };
    }
    case 'unknown-format':
      if (state.mapping !== null || action.headers.length === 0) return state;
      return { ...state, mapHeaders: action.headers, mapping: guessMapping(action.headers), unknownFile: true };
    case 'edit-mapping':
      return { ...state, mapHeaders: action.headers, mapping: action.mapping };
    case 'choose-zone':
      return { ...state, zoneChoice: action.zone };
    case 'choose-account':
      return { ...state, accountChoice: action.accountId, accountError: null };
    case 'remembered-account':
      return state.accountChoice === undefined ? { ...state, accountChoice: action.accountId } : state;
    case 'account-created':
      return { ...state, createdAccountId: action.accountId };
    case 'map-file-account':
      return { ...state, accountMap: { ...state.accountMap, [action.name]: action.accountId } };
    case 'refuse-without-account':
      return { ...state, accountError: SELECT_ACCOUNT_MESSAGE };
    case 'consent-skip':
      return { ...state, skipUnreadable: action.skip };
    case 'choose-setup':
      return { ...state, setup: action.setup };
    case 'choose-playbook':
      return { ...state, playbookId: action.playbookId };
    case 'preview-upload':
      return { ...state, previewUpload: action.upload };
    case 'commit-upload':
      return { ...state, commitUpload: action.upload };
  }
}

/**
 * The account the file goes into: the trader's choice; else the Trade Log's account when it names one of the trader's
 * accounts; else the default (or first) account.
 */
export function chooseImportAccount(
  state: ImportDialogState,
  pageAccountId: string | null | undefined,
  accounts: readonly TradingAccount[],
): string | null {
  if (state.accountChoice !== undefined) return state.accountChoice;
  if (pageAccountId && accounts.some((a) => a.id === pageAccountId)) return pageAccountId;
  return (accounts.find((a) => a.is_default) ?? accounts[0])?.id ?? null;
}

/** The file accounts' targets as the server takes them: '' leaves one out. */
export const accountTargets = (accountMap: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(accountMap).map(([name, id]) => [name, id === SKIP ? '' : id]));

/**
 * What stands between the preview and Import: unreadable rows the trader has not agreed to skip, or (in a file of
 * several accounts) trades whose file account has no trading account yet. Nothing new to import disables it too: no
 * button that would store nothing.
 */
export function importBlocks(state: ImportDialogState, preview: ImportPreview | undefined) {
  const needsSkipConsent = (preview?.unreadable_rows ?? 0) > 0;
  const unmapped = (preview?.unmapped_trades ?? 0) > 0 && (preview?.file_accounts.length ?? 0) > 1;
  return {
    needsSkipConsent,
    unmapped,
    blocked: !preview || preview.new_trades === 0 || (needsSkipConsent && !state.skipUnreadable) || unmapped,
  };
}
