import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { avatarFileParam, profilePatch, type Profile } from '../../../contract/profile';
import type { Database } from '../../db/client';
import { profiles } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { notFound } from '../../http/errors';
import { imageBodyLimit, readImageUpload, sendImage } from '../../http/image-upload';
import { readJson, readParams } from '../../http/validate';

const AVATAR_URL_PREFIX = '/api/profile/avatar/';

function toDto(row: typeof profiles.$inferSelect): Profile {
  return {
    display_name: row.displayName,
    first_name: row.firstName,
    last_name: row.lastName,
    profile_picture_url: row.profilePictureUrl,
    google_profile_picture_url: row.googleProfilePictureUrl,
    user_customized: row.userCustomized,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The trader's profile; a missing one is created with defaults. */
async function getProfile(database: Database, userId: string) {
  return database.withUser(userId, async (tx) => {
    const read = () => tx.select().from(profiles).where(eq(profiles.userId, userId));
    // Read first: an insert attempt on every read was a write per request under load.
    const [row] = await read();
    if (row) return row;
    await tx.insert(profiles).values({ userId }).onConflictDoNothing();
    return (await read())[0]!;
  });
}

export function profileRoutes({ database, storage }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(toDto(await getProfile(database, c.var.user.id))))
    .patch('/', async (c) => {
      const patch = await readJson(c, profilePatch);
      const userId = c.var.user.id;
      await getProfile(database, userId);
      const [row] = await database.withUser(userId, (tx) =>
        tx
          .update(profiles)
          .set({
            ...(patch.display_name !== undefined && { displayName: patch.display_name || null }),
            ...(patch.first_name !== undefined && { firstName: patch.first_name || null }),
            ...(patch.last_name !== undefined && { lastName: patch.last_name || null }),
            userCustomized: true,
            updatedAt: sql`now()`,
          })
          .where(eq(profiles.userId, userId))
          .returning(),
      );
      return c.json(toDto(row!));
    })
    .post('/avatar', imageBodyLimit(), async (c) => {
      const userId = c.var.user.id;
      const { bytes, type } = await readImageUpload(c);
      await getProfile(database, userId);
      // Avatars/{userId}/avatar-{timestamp}.{ext}, never overwriting; the old file is removed.
      const fileName = `avatar-${Date.now()}.${type.ext}`;
      await storage.put(`avatars/${userId}/${fileName}`, bytes);
      // The picture it replaces is read from the row locked for the change: two uploads at once each removed the
      // same old file and left one of the new ones behind, unused, for good.
      const { row, previous } = await database.withUser(userId, async (tx) => {
        const [before] = await tx.select({ url: profiles.profilePictureUrl }).from(profiles).where(eq(profiles.userId, userId)).for('update');
        const [updated] = await tx
          .update(profiles)
          .set({ profilePictureUrl: `${AVATAR_URL_PREFIX}${fileName}`, userCustomized: true, updatedAt: sql`now()` })
          .where(eq(profiles.userId, userId))
          .returning();
        return { row: updated, previous: before?.url ?? null };
      });
      // Two uploads in one millisecond share a name: the second's bytes replaced the first's, which is not to go.
      if (previous?.startsWith(AVATAR_URL_PREFIX) && previous !== row!.profilePictureUrl) {
        await storage.remove(`avatars/${userId}/${previous.slice(AVATAR_URL_PREFIX.length)}`).catch(() => undefined);
      }
      return c.json(toDto(row!), 201);
    })
    .get('/avatar/:file', async (c) => {
      const { file } = readParams(c, avatarFileParam);
      if (!/^avatar-\d+\.(jpg|png|webp|gif)$/.test(file)) throw notFound();
      // Only the owner's own folder: the user id comes from the session, never from the URL.
      return sendImage(c, await storage.get(`avatars/${c.var.user.id}/${file}`));
    });
}
