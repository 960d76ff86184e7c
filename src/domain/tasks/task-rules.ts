import type { CalendarDay } from '../dates/calendar-day';

/** A task: its fields and the rules its dates follow. */
export const TASK_CATEGORIES = ['Daily', 'Other', 'Psychology', 'Strategy', 'Risk Management', 'Market Analysis'] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number];

export function isTaskCategory(value: unknown): value is TaskCategory {
  return typeof value === 'string' && (TASK_CATEGORIES as readonly string[]).includes(value);
}

/** The trimmed title must be non-empty (the add button is disabled otherwise). Null when invalid. */
export function normalizeTaskTitle(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const title = input.trim();
  return title === '' ? null : title;
}

export type DailyTaskStatus = 'profit' | 'breakeven' | 'loss' | 'none';

/**
 * A day's task status from the completion ratio: at least 0.8 profit, at least 0.5 breakeven,
 * some completed loss, otherwise none (no tasks, or none completed).
 */
export function deriveDailyTaskStatus(counts: { completed: number; total: number }): DailyTaskStatus {
  if (counts.total <= 0 || counts.completed <= 0) return 'none';
  // Compare completed x 10 with total x 8 rather than a float ratio: 4 of 5 is exactly 0.8.
  if (counts.completed * 10 >= counts.total * 8) return 'profit';
  if (counts.completed * 2 >= counts.total) return 'breakeven';
  return 'loss';
}

export interface NewTask {
  title: string;
  category: TaskCategory;
  completed: boolean;
  recurring: boolean;
  taskDate: CalendarDay;
}
