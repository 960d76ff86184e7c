import { Hono } from 'hono';
import { and, asc, between, eq, sql } from 'drizzle-orm';
import { taskIdParam as idParam, taskInput, taskPatch, taskStatusQuery, tasksQuery, type Task, type TaskDayStatus } from '../../../contract/tasks';
import { getTodayInZone } from '../../../domain/dates';
import { deriveDailyTaskStatus, type TaskCategory } from '../../../domain/tasks';
import type { Tx } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { taskCompletion, tasks } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { notFound } from '../../http/errors';
import { readJson, readParams, readQuery } from '../../http/validate';
import { preferencesIn } from '../../core/preferences/repo';

function toDto(row: typeof tasks.$inferSelect): Task {
  return {
    id: row.id,
    title: row.title,
    category: row.category as TaskCategory,
    completed: row.completed,
    recurring: row.recurring,
    task_date: row.taskDate,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/**
 * A recurring task comes back every day: when a day up to today is listed, each recurring title from an earlier
 * day that is not on it yet is copied onto it, open. One list of the trader's day at a time: two at once (the
 * dashboard and another tab) each saw no copy yet and both made one.
 */
async function carryRecurringTasks(tx: Tx, userId: string, date: string) {
  await lockFor(tx, 'recurring_tasks', `${userId}:${date}`);
  await tx.execute(sql`
    insert into ${tasks} (user_id, title, category, completed, recurring, task_date)
    select distinct on (t.title) t.user_id, t.title, t.category, false, true, ${date}::date
    from ${tasks} t
    where t.user_id = ${userId} and t.recurring and t.task_date < ${date}::date
      and not exists (select 1 from ${tasks} d where d.user_id = ${userId} and d.task_date = ${date}::date and d.title = t.title)
    order by t.title, t.task_date desc`);
}

export function taskRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { date } = readQuery(c, tasksQuery);
      const userId = c.var.user.id;
      const rows = await database.withUser(userId, async (tx) => {
        const today = getTodayInZone(new Date(), (await preferencesIn(tx, userId)).timeZone);
        if (date <= today) await carryRecurringTasks(tx, userId, date);
        return tx
          .select()
          .from(tasks)
          .where(and(eq(tasks.userId, userId), eq(tasks.taskDate, date)))
          .orderBy(asc(tasks.createdAt), asc(tasks.id));
      });
      return c.json(rows.map(toDto));
    })
    .get('/status', async (c) => {
      const { from, to } = readQuery(c, taskStatusQuery);
      const userId = c.var.user.id;
      const rows = await database.withUser(userId, (tx) =>
        tx
          .select({
            date: tasks.taskDate,
            total: sql<number>`count(*)::int`,
            completed: sql<number>`count(*) filter (where ${tasks.completed})::int`,
          })
          .from(tasks)
          .where(and(eq(tasks.userId, userId), between(tasks.taskDate, from, to)))
          .groupBy(tasks.taskDate)
          .orderBy(tasks.taskDate),
      );
      return c.json(rows.map((r): TaskDayStatus => ({ ...r, status: deriveDailyTaskStatus(r) })));
    })
    .post('/', async (c) => {
      const input = await readJson(c, taskInput);
      const userId = c.var.user.id;
      const [row] = await database.withUser(userId, (tx) =>
        tx
          .insert(tasks)
          .values({ userId, title: input.title, category: input.category, recurring: input.recurring, taskDate: input.task_date })
          .returning(),
      );
      return c.json(toDto(row!), 201);
    })
    .patch('/:id', async (c) => {
      const { id } = readParams(c, idParam);
      const patch = await readJson(c, taskPatch);
      const userId = c.var.user.id;
      const row = await database.withUser(userId, async (tx) => {
        const [updated] = await tx
          .update(tasks)
          .set({
            ...(patch.title !== undefined && { title: patch.title }),
            ...(patch.category !== undefined && { category: patch.category }),
            ...(patch.recurring !== undefined && { recurring: patch.recurring }),
            ...(patch.completed !== undefined && { completed: patch.completed }),
          })
          .where(and(eq(tasks.userId, userId), eq(tasks.id, id)))
          .returning();
        if (!updated) throw notFound('Task not found');
        // Completions are recorded per task name and day; a duplicate is ignored.
        if (patch.completed === true) {
          await tx.insert(taskCompletion).values({ userId, taskName: updated.title, completionDate: updated.taskDate }).onConflictDoNothing();
        } else if (patch.completed === false) {
          await tx
            .delete(taskCompletion)
            .where(
              and(eq(taskCompletion.userId, userId), eq(taskCompletion.taskName, updated.title), eq(taskCompletion.completionDate, updated.taskDate)),
            );
        }
        return updated;
      });
      return c.json(toDto(row));
    })
    .delete('/:id', async (c) => {
      const { id } = readParams(c, idParam);
      const userId = c.var.user.id;
      const removed = await database.withUser(userId, (tx) =>
        tx
          .delete(tasks)
          .where(and(eq(tasks.userId, userId), eq(tasks.id, id)))
          .returning({ id: tasks.id }),
      );
      if (removed.length === 0) throw notFound('Task not found');
      return c.body(null, 204);
    });
}
