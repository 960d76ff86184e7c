import { describe, expect, it } from 'vitest';
import { TASK_CATEGORIES, deriveDailyTaskStatus, isTaskCategory, normalizeTaskTitle } from './task-rules';

describe('task rules', () => {
  it('has the six categories', () => {
    expect(TASK_CATEGORIES).toEqual(['Daily', 'Other', 'Psychology', 'Strategy', 'Risk Management', 'Market Analysis']);
    expect(isTaskCategory('Risk Management')).toBe(true);
    expect(isTaskCategory('risk management')).toBe(false);
  });

  it('accepts a trimmed non-empty title and refuses blanks', () => {
    expect(normalizeTaskTitle('  Journal the open  ')).toBe('Journal the open');
    expect(normalizeTaskTitle('   ')).toBeNull();
    expect(normalizeTaskTitle('')).toBeNull();
    expect(normalizeTaskTitle(undefined)).toBeNull();
  });

  it('4 of 5 done is profit (exactly 0.8), 3 of 4 is breakeven, 1 of 2 breakeven, 1 of 3 loss, 0 of 3 none', () => {
    expect(deriveDailyTaskStatus({ completed: 4, total: 5 })).toBe('profit');
    expect(deriveDailyTaskStatus({ completed: 5, total: 5 })).toBe('profit');
    expect(deriveDailyTaskStatus({ completed: 3, total: 4 })).toBe('breakeven');
    expect(deriveDailyTaskStatus({ completed: 1, total: 2 })).toBe('breakeven');
    expect(deriveDailyTaskStatus({ completed: 1, total: 3 })).toBe('loss');
    expect(deriveDailyTaskStatus({ completed: 0, total: 3 })).toBe('none');
    expect(deriveDailyTaskStatus({ completed: 0, total: 0 })).toBe('none');
  });
});
