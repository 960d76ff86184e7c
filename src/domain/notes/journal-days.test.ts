import { describe, expect, it } from 'vitest';
import { buildJournalDays, journalNoteTitle, selectJournalDate } from './journal-days';

describe('journal day list (trading days newest first with the summed P&L)', () => {
  const tradingDays = [
    { date: '2025-03-03', trades: 3, pnlCents: 12_550 },
    { date: '2025-03-05', trades: 1, pnlCents: -4_000 },
    { date: '2025-03-04', trades: 2, pnlCents: 0 },
  ];

  it('lists trading days newest first, and a note-only day (a Saturday review) among them', () => {
    const days = buildJournalDays(tradingDays, ['2025-03-08', '2025-03-04']);
    expect(days.map((d) => [d.date, d.trades, d.pnlCents, d.hasNote])).toEqual([
      ['2025-03-08', 0, 0, true],
      ['2025-03-05', 1, -4_000, false],
      ['2025-03-04', 2, 0, true],
      ['2025-03-03', 3, 12_550, false],
    ]);
  });

  it('adds up the same date given twice (two accounts) to the cent', () => {
    const days = buildJournalDays(
      [
        { date: '2025-03-03', trades: 1, pnlCents: 10 },
        { date: '2025-03-03', trades: 1, pnlCents: 20 },
      ],
      [],
    );
    expect(days).toEqual([{ date: '2025-03-03', trades: 2, pnlCents: 30, hasNote: false }]);
  });

  it('with a date filter lists only that day, also when it has neither trades nor a note yet', () => {
    expect(buildJournalDays(tradingDays, [], '2025-03-05')).toEqual([{ date: '2025-03-05', trades: 1, pnlCents: -4_000, hasNote: false }]);
    expect(buildJournalDays(tradingDays, [], '2025-03-09')).toEqual([{ date: '2025-03-09', trades: 0, pnlCents: 0, hasNote: false }]);
    expect(buildJournalDays(tradingDays, [], 'not a date')).toHaveLength(3);
  });

  it('is empty for a trader with no trades and no journal notes', () => {
    expect(buildJournalDays([], [])).toEqual([]);
  });
});

describe('selected journal date (the first date is selected when none is)', () => {
  const days = buildJournalDays([{ date: '2025-03-03', trades: 1, pnlCents: 5 }], ['2025-03-07']);
  it('keeps a listed choice, else takes the newest day, else none', () => {
    expect(selectJournalDate(days, '2025-03-03')).toBe('2025-03-03');
    expect(selectJournalDate(days, null)).toBe('2025-03-07');
    expect(selectJournalDate(days, '2024-01-01')).toBe('2025-03-07');
    expect(selectJournalDate([], null)).toBeNull();
  });

  it('titles the journal note with the date string', () => {
    expect(journalNoteTitle('2025-03-07')).toBe('2025-03-07');
  });
});
