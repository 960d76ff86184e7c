import type { SavedView } from '../../../contract/saved-views';
import { SAVED_VIEWS_MAX } from '../../../domain/reports/saved-views';
import type { Database } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import { savedViewsRepo, type SavedViewRow } from './repo';

const NOT_FOUND = 'Saved view not found';
const nameTaken = (name: string) =>
  conflict(`You already have a saved view named "${name}"`, { fields: [{ field: 'name', message: 'is already taken' }] });

export function toSavedViewDto(row: SavedViewRow): SavedView {
  return {
    id: row.id,
    name: row.name,
    filter: row.filter,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

export const savedViewsService = {
  list: (db: Database, userId: string) => db.withUser(userId, async (tx) => (await savedViewsRepo(tx, userId).list()).map(toSavedViewDto)),

  /** A name the trader has not used yet (whatever its case), and at most SAVED_VIEWS_MAX views. */
  create: (db: Database, userId: string, input: { name: string; filter: string }) =>
    db.withUser(userId, async (tx) => {
      const repo = savedViewsRepo(tx, userId);
      await repo.lock();
      if (await repo.nameTaken(input.name)) throw nameTaken(input.name);
      if ((await repo.count()) >= SAVED_VIEWS_MAX) {
        throw conflict(`You can keep at most ${SAVED_VIEWS_MAX} saved views; delete one to save another`, { code: 'saved-views-limit' });
      }
      return toSavedViewDto(await repo.insert(input));
    }),

  rename: async (db: Database, userId: string, id: string, name: string) =>
    db.withUser(userId, async (tx) => {
      const repo = savedViewsRepo(tx, userId);
      await repo.lock();
      if (!(await repo.find(id))) throw notFound(NOT_FOUND);
      if (await repo.nameTaken(name, id)) throw nameTaken(name);
      const row = await repo.rename(id, name);
      if (!row) throw notFound(NOT_FOUND);
      return toSavedViewDto(row);
    }),

  async remove(db: Database, userId: string, id: string) {
    if (!(await db.withUser(userId, (tx) => savedViewsRepo(tx, userId).remove(id)))) throw notFound(NOT_FOUND);
  },
};
