import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createReportFilter } from '../../../domain/reports/filter';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { FilterBar } from './filter-bar';
import { MistakesReportView } from './mistakes-report';
import { mentorReportsSource, ReportsApiBase } from './reports-source';

/**
 * The Reports page's parts on a mentor's page: every request goes to the mentor's routes for that trader (a request to
 * the signed-in user's own /api/reports, accounts, mistake tags or playbooks is answered by nobody and fails the test),
 * and nothing that changes a setting is drawn.
 */

const BASE = '/api/mentor/trader-1/reports';
const SHARED = [{ id: '11111111-1111-4111-8111-111111111111', name: 'Shown eval' }];
const OPTIONS = { symbol: ['NQ'], contract: [], side: ['Long'], setup: [], session: ['AM'], tag: ['FOMO'], size: [1], trades: 1 };

const asMentor = (ui: ReactElement) => <ReportsApiBase.Provider value={mentorReportsSource('trader-1', SHARED)}>{ui}</ReportsApiBase.Provider>;

describe("the reports on a mentor's page", () => {
  let asked: string[];
  beforeEach(() => {
    asked = [];
    stubApi.use(
      http.get(`${BASE}/options`, ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json(OPTIONS);
      }),
      http.get(`${BASE}/mistakes`, ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json({ basis: { computedFrom: 'From 0 trades', trades: 0 }, mistakes: { rows: [] } });
      }),
    );
  });

  it("offers the shared accounts and the trader's values, never the trades without an account", async () => {
    const { user } = renderWithApp(asMentor(<FilterBar filter={createReportFilter()} onChange={vi.fn()} />));
    await waitFor(() => expect(asked).toContain(`${BASE}/options`));
    await user.click(await screen.findByTestId('filter-accounts'));
    expect(await screen.findByRole('option', { name: 'Shown eval' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Unassigned' })).not.toBeInTheDocument();
  });

  it('draws the Mistakes report without the setting of which tags are mistakes', async () => {
    renderWithApp(asMentor(<MistakesReportView filter={createReportFilter()} />));
    await waitFor(() => expect(asked).toContain(`${BASE}/mistakes`));
    await screen.findByTestId('report-mistakes');
    expect(screen.queryByTestId('mistake-tags')).not.toBeInTheDocument();
  });
});
