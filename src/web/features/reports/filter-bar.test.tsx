import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReportFilter, type ReportFilter } from '../../../domain/reports/filter';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { FilterBar } from './filter-bar';

const OPTIONS = { symbol: ['NQ', 'ES'], contract: [], side: ['Long', 'Short'], setup: [], session: ['AM'], tag: [], size: [1], trades: 2 };
const desktopMatchMedia = window.matchMedia;

/** A screen of the given width for the media queries (jsdom draws none). */
function screenWidth(px: number) {
  window.matchMedia = (query: string) => {
    const max = /max-width:\s*([\d.]+)em/.exec(query);
    return { ...desktopMatchMedia(query), matches: max ? px <= Number(max[1]) * 16 : false };
  };
}

beforeEach(() => {
  stubApi.use(
    http.get('/api/reports/options', () => HttpResponse.json(OPTIONS)),
    http.get('/api/accounts', () => HttpResponse.json([])),
    http.get('/api/mistake-tags', () => HttpResponse.json({ tags: [] })),
    http.get('/api/playbooks', () => HttpResponse.json([])),
  );
});
afterEach(() => {
  window.matchMedia = desktopMatchMedia;
});

const NARROWED: ReportFilter = { ...createReportFilter(), range: 'last-30-days', side: ['Short'], session: ['AM'] };

describe('FilterBar on a phone', () => {
  it('folds every filter into one button that counts the active ones, and unfolds them whole', async () => {
    screenWidth(390);
    const onChange = vi.fn();
    const { user } = renderWithApp(<FilterBar filter={NARROWED} onChange={onChange} actions={<button type="button">Print</button>} />);
    const toggle = await screen.findByTestId('filter-toggle');
    // Range, side and session: three.
    expect(screen.getByTestId('filter-toggle-count')).toHaveTextContent('3 active');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Folded: no fields and no chips take the screen; the report's actions stay beside the button.
    expect(screen.queryByTestId('filter-range')).not.toBeInTheDocument();
    expect(screen.queryByTestId('active-filters')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeVisible();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await screen.findByTestId('filter-range');
    expect(screen.getByTestId('active-filter-side')).toBeInTheDocument();
    // A chip removed from the unfolded bar narrows one key less.
    await user.click(screen.getByRole('button', { name: 'Remove filter Side: Short' }));
    expect(onChange).toHaveBeenCalledWith({ ...NARROWED, side: [] });
  });

  it('shows no count when nothing narrows the trades, and the fields at once on a desktop', async () => {
    screenWidth(390);
    const phone = renderWithApp(<FilterBar filter={createReportFilter()} onChange={vi.fn()} />);
    await screen.findByTestId('filter-toggle');
    expect(screen.queryByTestId('filter-toggle-count')).not.toBeInTheDocument();
    phone.unmount();

    screenWidth(1440);
    renderWithApp(<FilterBar filter={NARROWED} onChange={vi.fn()} />);
    await waitFor(() => expect(screen.getByTestId('filter-range')).toBeInTheDocument());
    expect(screen.queryByTestId('filter-toggle')).not.toBeInTheDocument();
    expect(screen.getByTestId('active-filter-side')).toBeInTheDocument();
  });
});
