import { z } from 'zod';
import { normalizeTaskTitle, TASK_CATEGORIES } from '../domain/tasks';
import { calendarDay, instant } from './common';

/** The tasks endpoints' contract: /api/tasks and /api/tasks/status. */

const day = calendarDay();
const title = z
  .string({ error: 'Task title is required' })
  .max(200, 'Task title must be at most 200 characters')
  .transform((t, ctx) => {
    const normalized = normalizeTaskTitle(t);
    if (!normalized) ctx.addIssue({ code: 'custom', message: 'Task title is required' });
    return normalized ?? '';
  });
const category = z.enum(TASK_CATEGORIES, { error: `category must be one of ${TASK_CATEGORIES.join(', ')}` });

/** GET /api/tasks */
export const tasksQuery = z.object({ date: day });
/** GET /api/tasks/status */
export const taskStatusQuery = z.object({ from: day, to: day });
/** POST /api/tasks */
export const taskInput = z.object({
  title,
  category: category.default('Daily'),
  recurring: z.boolean().default(false),
  task_date: day,
});
/** PATCH /api/tasks/:id */
export const taskPatch = z
  .object({ title: title.optional(), category: category.optional(), recurring: z.boolean().optional(), completed: z.boolean().optional() })
  .refine((p) => Object.keys(p).length > 0, 'Nothing to update');
export const taskIdParam = z.object({ id: z.uuid('id must be a task id') });

/** One task, as GET /api/tasks lists them and POST and PATCH answer. */
export const task = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  category: z.enum(TASK_CATEGORIES),
  completed: z.boolean(),
  recurring: z.boolean(),
  task_date: z.iso.date(),
  created_at: instant,
});
export const taskList = z.array(task);

/** GET /api/tasks/status: one row per day that has tasks. */
export const taskDayStatus = z.strictObject({
  date: z.iso.date(),
  total: z.number().int().positive(),
  completed: z.number().int().nonnegative(),
  status: z.enum(['profit', 'breakeven', 'loss', 'none']),
});
export const taskDayStatusList = z.array(taskDayStatus);

export type TaskInput = z.input<typeof taskInput>;
export type TaskPatch = z.input<typeof taskPatch>;
export type Task = z.infer<typeof task>;
export type TaskDayStatus = z.infer<typeof taskDayStatus>;
