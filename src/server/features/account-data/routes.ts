import { Hono } from 'hono';
import { getCookie, deleteCookie } from 'hono/cookie';
import { deleteAccountInput, type AccountDeleted } from '../../../contract/account';
import type { AppDeps, AppEnv } from '../../http/context';
import { badRequest } from '../../http/errors';
import { readJson } from '../../http/validate';
import { createAccountDataService } from './service';

export const DELETE_EMAIL_MISMATCH = 'Type the email address of this account to confirm';

/** GET /api/account/export (one JSON file of everything) and DELETE /api/account {email} (after retyping it). */
export function accountDataRoutes({ database, storage, logger, sessions }: AppDeps) {
  const service = createAccountDataService({ database, storage });
  return new Hono<AppEnv>()
    .get('/export', async (c) => {
      const now = new Date();
      const data = await service.exportAll(c.var.user.id, now);
      c.header('Content-Disposition', `attachment; filename="edgebook-export-${now.toISOString().slice(0, 10)}.json"`);
      c.header('Cache-Control', 'no-store');
      return c.json(data);
    })
    .delete('/', async (c) => {
      const { email } = await readJson(c, deleteAccountInput);
      const user = c.var.user;
      if (email.trim().toLowerCase() !== user.email.toLowerCase()) {
        throw badRequest(`email: ${DELETE_EMAIL_MISMATCH}`);
      }
      await service.deleteAll(user.id);
      await sessions?.revoke();
      logger.info({ user: user.id }, 'account deleted');
      // The session died with the account; drop the browser's cookies for it too.
      for (const name of Object.keys(getCookie(c))) {
        if (/^(__Secure-)?better-auth\./.test(name)) deleteCookie(c, name, { path: '/', secure: name.startsWith('__Secure-') });
      }
      return c.json({ deleted: true } satisfies AccountDeleted);
    });
}
