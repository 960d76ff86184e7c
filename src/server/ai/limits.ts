import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { AI_MESSAGES, AiError } from './errors';

const WINDOW_SECONDS = 60;

/**
 * Counts one AI request for the trader and refuses it past AI_RATE_LIMIT per minute or AI_DAILY_LIMIT per UTC day.
 * One atomic upsert in the database, so concurrent requests and several app processes cannot slip past the count.
 */
export async function admitAiRequest(db: Database, userId: string, limits: { perMinute: number; perDay: number }): Promise<void> {
  const row = await db.withUser(userId, async (tx) => {
    const result = await tx.execute(sql`
      insert into ai_usage as u (user_id, window_start, window_count, day, day_count)
      values (${userId}, now(), 1, (now() at time zone 'UTC')::date, 1)
      on conflict (user_id) do update set
        window_count = case when u.window_start > now() - make_interval(secs => ${WINDOW_SECONDS}) then u.window_count + 1 else 1 end,
        window_start = case when u.window_start > now() - make_interval(secs => ${WINDOW_SECONDS}) then u.window_start else now() end,
        day_count = case when u.day = (now() at time zone 'UTC')::date then u.day_count + 1 else 1 end,
        day = (now() at time zone 'UTC')::date
      returning window_count, day_count,
        greatest(1, ceil(${WINDOW_SECONDS} - extract(epoch from now() - window_start)))::int as retry_after`);
    return (result as unknown as { rows: Array<{ window_count: number; day_count: number; retry_after: number }> }).rows[0]!;
  });
  if (row.day_count > limits.perDay) throw new AiError('rate-limited', AI_MESSAGES.dailyLimit, undefined, 3600);
  if (row.window_count > limits.perMinute) {
    throw new AiError('rate-limited', AI_MESSAGES.rateLimited(row.retry_after), undefined, row.retry_after);
  }
}
