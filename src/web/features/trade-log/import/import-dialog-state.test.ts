import { describe, expect, it } from 'vitest';
import { makeAccount } from '../../../test/fixtures';
import type { ImportPreview } from './api';
import { SKIP } from './file-accounts';
import {
  accountTargets,
  AUTO,
  chooseImportAccount,
  importBlocks,
  INITIAL_IMPORT_DIALOG,
  MAPPED,
  reduceImportDialog,
  type ImportDialogAction,
  type ImportDialogState,
} from './import-dialog-state';

const apply = (state: ImportDialogState, ...actions: ImportDialogAction[]) => actions.reduce(reduceImportDialog, state);
const HEADERS = ['Date/Time', 'Ticker', 'Buy/Sell', 'Qty', 'Fill Price', 'Fees'];

describe('the import dialog reducer', () => {
  it('reads the file with progress, then holds its bytes; a failure ends the reading', () => {
    const bytes = new ArrayBuffer(8);
    const read = apply(INITIAL_IMPORT_DIALOG, { type: 'read-progress', percent: 40 });
    expect(read.file).toEqual({ status: 'reading', percent: 40 });
    expect(apply(read, { type: 'read', bytes }, { type: 'read-progress', percent: 90 }).file).toEqual({ status: 'read', bytes });
    expect(apply(read, { type: 'read-failed' }).file).toEqual({ status: 'failed' });
  });

  it('a file no format reads offers its columns to map, with a first guess, once', () => {
    const offered = apply(INITIAL_IMPORT_DIALOG, { type: 'unknown-format', headers: HEADERS });
    expect(offered).toMatchObject({ unknownFile: true, mapHeaders: HEADERS });
    expect(offered.mapping).toMatchObject({
      kind: 'fills',
      time: 'Date/Time',
      symbol: 'Ticker',
      side: 'Buy/Sell',
      quantity: 'Qty',
      price: 'Fill Price',
      commission: 'Fees',
    });
    // The trader's corrections are not replaced by the guess when the server refuses the file again.
    const corrected = apply(offered, {
      type: 'edit-mapping',
      headers: HEADERS,
      mapping: { kind: 'fills', time: 'Date/Time', symbol: 'Ticker', quantity: 'Qty', price: 'Fees' },
    });
    expect(apply(corrected, { type: 'unknown-format', headers: HEADERS })).toBe(corrected);
    expect(apply(INITIAL_IMPORT_DIALOG, { type: 'unknown-format', headers: [] })).toBe(INITIAL_IMPORT_DIALOG);
  });

  it('choosing to map the columns maps those the server read; choosing a format drops the mapping', () => {
    const mapped = apply(INITIAL_IMPORT_DIALOG, { type: 'choose-format', format: MAPPED, known: { headers: HEADERS, mapping: null } });
    expect(mapped).toMatchObject({ format: MAPPED, mapHeaders: HEADERS, unknownFile: false });
    expect(mapped.mapping?.price).toBe('Fill Price');
    // The mapping the file was read with (a remembered one) is the start, rather than a guess.
    const remembered = { kind: 'pnl' as const, time: 'Date/Time', pnl: 'Fees' };
    expect(apply(INITIAL_IMPORT_DIALOG, { type: 'choose-format', format: MAPPED, known: { headers: HEADERS, mapping: remembered } }).mapping).toEqual(
      remembered,
    );
    // Without columns to map there is nothing to offer yet.
    expect(apply(INITIAL_IMPORT_DIALOG, { type: 'choose-format', format: MAPPED, known: {} })).toMatchObject({ format: MAPPED, mapping: null });
    expect(apply(mapped, { type: 'choose-format', format: 'tradovate-orders', known: {} })).toMatchObject({
      format: 'tradovate-orders',
      mapping: null,
    });
    expect(apply(mapped, { type: 'choose-format', format: AUTO, known: {} }).mapping).toEqual(mapped.mapping);
  });

  it('the account: the trader’s choice, else a remembered one, else the page’s, else the default, else the first', () => {
    const accounts = [makeAccount({ id: 'a1', name: 'Apex' }), makeAccount({ id: 'a2', name: 'Topstep', is_default: true })];
    expect(chooseImportAccount(INITIAL_IMPORT_DIALOG, 'a1', accounts)).toBe('a1');
    expect(chooseImportAccount(INITIAL_IMPORT_DIALOG, 'not-mine', accounts)).toBe('a2');
    expect(chooseImportAccount(INITIAL_IMPORT_DIALOG, null, [accounts[0]!])).toBe('a1');
    expect(chooseImportAccount(INITIAL_IMPORT_DIALOG, null, [])).toBeNull();
    const remembered = apply(INITIAL_IMPORT_DIALOG, { type: 'remembered-account', accountId: 'a1' });
    expect(chooseImportAccount(remembered, 'a2', accounts)).toBe('a1');
    const chosen = apply(
      INITIAL_IMPORT_DIALOG,
      { type: 'refuse-without-account' },
      { type: 'choose-account', accountId: 'a2' },
      { type: 'remembered-account', accountId: 'a1' },
    );
    expect(chooseImportAccount(chosen, 'a1', accounts)).toBe('a2');
    expect(chosen.accountError).toBeNull();
    expect(apply(INITIAL_IMPORT_DIALOG, { type: 'refuse-without-account' }).accountError).toBe('Please select a trading account');
  });

  it("a file's accounts go where the trader maps them; Leave out sends no account", () => {
    const state = apply(
      INITIAL_IMPORT_DIALOG,
      { type: 'map-file-account', name: 'APEX-1', accountId: 'a1' },
      { type: 'map-file-account', name: 'APEX-2', accountId: SKIP },
    );
    expect(accountTargets(state.accountMap)).toEqual({ 'APEX-1': 'a1', 'APEX-2': '' });
  });
});

describe('what blocks Import', () => {
  const preview = (overrides: Partial<ImportPreview>) =>
    ({ new_trades: 3, unreadable_rows: 0, unmapped_trades: 0, file_accounts: [], ...overrides }) as ImportPreview;

  it('no preview yet, or nothing new in it', () => {
    expect(importBlocks(INITIAL_IMPORT_DIALOG, undefined).blocked).toBe(true);
    expect(importBlocks(INITIAL_IMPORT_DIALOG, preview({ new_trades: 0 })).blocked).toBe(true);
    expect(importBlocks(INITIAL_IMPORT_DIALOG, preview({})).blocked).toBe(false);
  });

  it('unreadable rows until the trader agrees to skip them', () => {
    const withBadRows = preview({ unreadable_rows: 2 });
    expect(importBlocks(INITIAL_IMPORT_DIALOG, withBadRows)).toMatchObject({ needsSkipConsent: true, blocked: true });
    expect(importBlocks(apply(INITIAL_IMPORT_DIALOG, { type: 'consent-skip', skip: true }), withBadRows).blocked).toBe(false);
  });

  it('trades of a file account with nowhere to go, in a file of several accounts', () => {
    const two = [{ name: 'A' }, { name: 'B' }] as ImportPreview['file_accounts'];
    expect(importBlocks(INITIAL_IMPORT_DIALOG, preview({ unmapped_trades: 4, file_accounts: two }))).toMatchObject({ unmapped: true, blocked: true });
    expect(importBlocks(INITIAL_IMPORT_DIALOG, preview({ unmapped_trades: 4, file_accounts: two.slice(0, 1) })).unmapped).toBe(false);
  });
});
