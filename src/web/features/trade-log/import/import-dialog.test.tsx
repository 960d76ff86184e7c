import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TradingAccount } from '../../../shared/api';
import { makeAccount, PREFERENCES, TRADE_PREFERENCES } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { stubApi } from '../../../test/stub-api';
import type { ImportOutcome, ImportPreview } from './api';
import { ImportDialog } from './import-dialog';

const APEX = makeAccount({ id: 'aaaaaaaa-1111-4111-8111-111111111111', name: 'Apex 50k', is_default: true });
const TOPSTEP = makeAccount({ id: 'aaaaaaaa-2222-4222-8222-222222222222', name: 'Topstep' });
const CSV = 'Date/Time,Ticker,Buy/Sell,Qty,Fill Price,Fees\n2025-03-03 09:31:05,NQH5,Buy,1,21050.25,2.14\n';
const totals = { trades: 3, gross_pnl: '412.50', commission: '12.84', net_pnl: '399.66' };

function makePreview(overrides: Partial<ImportPreview> = {}): ImportPreview {
  return {
    format: { id: 'generic-fills', label: 'Fills CSV' },
    detected_format: null,
    time_zone: 'America/New_York',
    time_zone_source: 'profile',
    account_id: APEX.id,
    row_count: 6,
    file_accounts: [],
    total_trades: 3,
    new_trades: 3,
    duplicates: 0,
    duplicates_from_other_exports: 0,
    unmapped_trades: 0,
    skipped_trades: 0,
    costs_in_file: true,
    fee_schedules: [],
    headers: CSV.split('\n')[0]!.split(','),
    mapping: null,
    mapping_remembered: false,
    trades: [],
    trades_truncated: false,
    open_positions: [],
    issues: [],
    unreadable_rows: 0,
    ignored: {},
    totals,
    time_zone_check: null,
    ...overrides,
  };
}

const OUTCOME: ImportOutcome = {
  imported: 3,
  duplicates: 0,
  total_trades: 3,
  skipped_trades: 0,
  open_positions: 0,
  skipped_rows: 0,
  format: { id: 'generic-fills', label: 'Fills CSV' },
  time_zone: 'America/New_York',
  account_id: APEX.id,
  accounts: [{ account_id: APEX.id, imported: 3, duplicates: 0 }],
  fills_attached: 0,
  prop_warnings: [],
} as unknown as ImportOutcome;

/** The requests the dialog sent to the import endpoints: their query parameters and the body (the file's text). */
let previews: { params: URLSearchParams; body: string }[];
let commits: { params: URLSearchParams; body: string }[];

function answerPreviews(answer: (params: URLSearchParams) => Response) {
  stubApi.use(
    http.post('/api/imports/preview', async ({ request }) => {
      const params = new URL(request.url).searchParams;
      previews.push({ params, body: await request.text() });
      return answer(params);
    }),
  );
}

function serveAccounts(accounts: TradingAccount[]) {
  stubApi.use(http.get('/api/accounts', () => HttpResponse.json(accounts)));
}

beforeEach(() => {
  previews = [];
  commits = [];
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/trade-preferences', () => HttpResponse.json(TRADE_PREFERENCES)),
    http.get('/api/playbooks', () => HttpResponse.json([])),
    http.get('/api/imports/queue', () => HttpResponse.json({ waiting: 0, ahead: 0 })),
    http.post('/api/imports', async ({ request }) => {
      commits.push({ params: new URL(request.url).searchParams, body: await request.text() });
      return HttpResponse.json(OUTCOME);
    }),
  );
  serveAccounts([APEX, TOPSTEP]);
});

function renderDialog(accountId: string | null = null) {
  const file = new File([CSV], 'fills.csv', { type: 'text/csv', lastModified: 1_740_000_000_000 });
  const props = { onClose: vi.fn(), onImported: vi.fn(), onOpenGuide: vi.fn() };
  const view = renderWithApp(<ImportDialog file={file} accountId={accountId} {...props} />);
  return { ...view, ...props, importButton: () => screen.getByTestId('import-confirm') };
}

describe('ImportDialog', () => {
  it('reads the file, shows the preview for the default account, and imports into it', async () => {
    answerPreviews(() => HttpResponse.json(makePreview()));
    const { user, importButton, onClose, onImported, client } = renderDialog();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    expect(screen.getByText('fills.csv')).toBeInTheDocument();
    expect(await screen.findByTestId('import-new-count')).toHaveTextContent('3');
    expect(importButton()).toHaveTextContent('Import 3 trades');
    expect(importButton()).toBeEnabled();
    // The file's own bytes went to the server, for the default account, in no zone chosen yet.
    expect(previews).toHaveLength(1);
    expect(previews[0]!.body).toBe(CSV);
    expect(previews[0]!.params.get('account_id')).toBe(APEX.id);
    expect(previews[0]!.params.get('time_zone')).toBe('');
    expect(screen.getByText('Your time zone (Profile Settings)')).toBeInTheDocument();

    await user.click(importButton());
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(commits).toHaveLength(1);
    expect(commits[0]!.params.get('account_id')).toBe(APEX.id);
    // What is stored is read in the zone the preview was read in.
    expect(commits[0]!.params.get('time_zone')).toBe('America/New_York');
    expect(commits[0]!.body).toBe(CSV);
    expect(onImported).toHaveBeenCalledWith({ createdAccountId: null });
    expect(await screen.findByText('Trades imported successfully (3 trades have been imported)')).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['trades'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['accounts'] });
  });

  it('another account chosen is previewed and imported into', async () => {
    answerPreviews((params) => HttpResponse.json(makePreview({ account_id: params.get('account_id') })));
    const { user, importButton } = renderDialog(APEX.id);
    await screen.findByTestId('import-new-count');
    await user.click(screen.getByRole('combobox', { name: 'Trading account' }));
    await user.click(await screen.findByRole('option', { name: 'Topstep' }));
    await waitFor(() => expect(previews.at(-1)!.params.get('account_id')).toBe(TOPSTEP.id));
    await waitFor(() => expect(importButton()).toBeEnabled());
    await user.click(importButton());
    await waitFor(() => expect(commits).toHaveLength(1));
    expect(commits[0]!.params.get('account_id')).toBe(TOPSTEP.id);
  });

  it('unreadable rows hold Import until the trader agrees to skip them, and the import says so', async () => {
    answerPreviews(() => HttpResponse.json(makePreview({ unreadable_rows: 2 })));
    const { user, importButton } = renderDialog();
    const consent = await screen.findByRole('checkbox', { name: 'Import the other trades and skip the 2 unreadable rows' });
    expect(importButton()).toBeDisabled();
    await user.click(consent);
    expect(importButton()).toBeEnabled();
    await user.click(importButton());
    await waitFor(() => expect(commits).toHaveLength(1));
    expect(commits[0]!.params.get('skip_unreadable')).toBe('true');
  });

  it('a file of several accounts: each file account is mapped before Import, and the mapping goes with the preview', async () => {
    answerPreviews((params) => {
      const map = JSON.parse(params.get('account_map') ?? '{}') as Record<string, string>;
      const fileAccount = (name: string) => ({
        name,
        account_id: map[name] || null,
        source: map[name] ? ('chosen' as const) : null,
        suggested_account_id: null,
        trades: 2,
        new_trades: 2,
        totals: { ...totals, trades: 2 },
      });
      const mapped = ['PA-1', 'PA-2'].filter((name) => name in map).length;
      return HttpResponse.json(
        makePreview({
          file_accounts: [fileAccount('PA-1'), fileAccount('PA-2')],
          unmapped_trades: (2 - mapped) * 2,
          skipped_trades: map['PA-2'] === '' ? 2 : 0,
        }),
      );
    });
    const { user, importButton } = renderDialog();
    expect(await screen.findByText('Choose a trading account (or Leave out) for each account of the file.')).toBeInTheDocument();
    expect(importButton()).toBeDisabled();
    const rows = screen.getAllByTestId('import-file-account');
    await user.click(within(rows[0]!).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Topstep' }));
    await waitFor(() => expect(previews.at(-1)!.params.get('account_map')).toBe(JSON.stringify({ 'PA-1': TOPSTEP.id })));
    await user.click(within(screen.getAllByTestId('import-file-account')[1]!).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Leave out (do not import)' }));
    // Left out goes to the server as no account.
    await waitFor(() => expect(previews.at(-1)!.params.get('account_map')).toBe(JSON.stringify({ 'PA-1': TOPSTEP.id, 'PA-2': '' })));
    await waitFor(() => expect(importButton()).toBeEnabled());
    expect(screen.queryByText('Choose a trading account (or Leave out) for each account of the file.')).not.toBeInTheDocument();
    await user.click(importButton());
    await waitFor(() => expect(commits).toHaveLength(1));
    expect(commits[0]!.params.get('account_map')).toBe(JSON.stringify({ 'PA-1': TOPSTEP.id, 'PA-2': '' }));
  });

  it('a file no format reads: its columns are offered to map, and the preview is read with the mapping', async () => {
    const headers = CSV.split('\n')[0]!.split(',');
    answerPreviews((params) =>
      params.has('mapping')
        ? HttpResponse.json(makePreview({ format: { id: 'mapped', label: 'Your column mapping' }, mapping: JSON.parse(params.get('mapping')!) }))
        : HttpResponse.json({ error: 'Unknown file format. Columns found: x. Supported: y.', code: 'unknown-format', headers }, { status: 400 }),
    );
    const { importButton } = renderDialog();
    // The mapping is sent once the trader pauses (a debounce), after the refusal that offered it.
    await waitFor(() => expect(previews.some((p) => p.params.has('mapping'))).toBe(true));
    const sent = JSON.parse(previews.find((p) => p.params.has('mapping'))!.params.get('mapping')!);
    expect(sent).toMatchObject({
      kind: 'fills',
      time: 'Date/Time',
      symbol: 'Ticker',
      side: 'Buy/Sell',
      quantity: 'Qty',
      price: 'Fill Price',
      commission: 'Fees',
    });
    expect(await screen.findByTestId('import-new-count')).toHaveTextContent('3');
    expect(screen.getByRole('combobox', { name: 'File format' })).toHaveValue('Map the columns myself');
    expect(screen.queryByTestId('import-error')).not.toBeInTheDocument();
    expect(importButton()).toBeEnabled();
  });

  it('with no trading account, Import asks for one and sends nothing', async () => {
    serveAccounts([]);
    answerPreviews(() => HttpResponse.json(makePreview({ account_id: null })));
    const { user, importButton } = renderDialog();
    await screen.findByTestId('import-new-count');
    expect(previews[0]!.params.has('account_id')).toBe(false);
    await user.click(importButton());
    expect(await screen.findByText('Please select a trading account')).toBeInTheDocument();
    expect(commits).toEqual([]);
  });

  it('a refused preview shows the server’s reason and no Import', async () => {
    answerPreviews(() => HttpResponse.json({ error: 'The file is empty.' }, { status: 400 }));
    const { importButton } = renderDialog();
    const error = await screen.findByTestId('import-error');
    expect(error).toHaveTextContent('Failed to import trades');
    expect(error).toHaveTextContent('The file is empty.');
    expect(importButton()).toBeDisabled();
    expect(importButton()).toHaveTextContent(/^Import$/);
  });
});
