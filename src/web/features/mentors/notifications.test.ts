import { describe, expect, it } from 'vitest';
import type { MentorView } from '../../../contract/mentors';
import { newViewLines, notificationsLabel } from './notifications';

const view = (over: Partial<MentorView>): MentorView => ({
  mentor_id: 'm1',
  mentor_name: 'Alex',
  day: '2026-03-04',
  first_seen_at: '2026-03-04T14:00:00.000Z',
  last_seen_at: '2026-03-04T15:00:00.000Z',
  count: 3,
  new: true,
  ...over,
});

// New York: 2026-03-05T03:00Z is still March 4 there.
const clock = {
  today: '2026-03-04',
  dayOf: (iso: string) => new Date(new Date(iso).getTime() - 5 * 3_600_000).toISOString().slice(0, 10),
  label: (iso: string) => `day ${new Date(new Date(iso).getTime() - 5 * 3_600_000).toISOString().slice(5, 10)}`,
};

describe('newViewLines', () => {
  it("says today by the trader's day, an earlier day by its date, one line per mentor from the latest read", () => {
    const lines = newViewLines(
      [
        view({ last_seen_at: '2026-03-05T03:00:00.000Z', day: '2026-03-05' }),
        view({ last_seen_at: '2026-03-03T15:00:00.000Z', day: '2026-03-03' }),
        view({ mentor_id: 'm2', mentor_name: 'Sam', last_seen_at: '2026-03-02T12:00:00.000Z', day: '2026-03-02' }),
      ],
      clock,
    );
    expect(lines).toEqual(['Alex viewed your journal today', 'Sam viewed your journal on day 03-02']);
  });

  it('leaves out views the trader has seen', () => {
    expect(newViewLines([view({ new: false }), view({ mentor_id: 'm2', mentor_name: 'Sam' })], clock)).toEqual(['Sam viewed your journal today']);
    expect(newViewLines([view({ new: false })], clock)).toEqual([]);
  });
});

describe('notificationsLabel', () => {
  it('counts comments in words, then who viewed', () => {
    expect(notificationsLabel(1, [])).toBe('1 new comment from your mentors');
    expect(notificationsLabel(2, ['Alex viewed your journal today'])).toBe('2 new comments from your mentors; Alex viewed your journal today');
    expect(notificationsLabel(0, ['Alex viewed your journal today'])).toBe('Alex viewed your journal today');
  });
});
