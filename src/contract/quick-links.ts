import { z } from 'zod';
import { QUICK_LINK_ICON_MAX, QUICK_LINK_TITLE_MAX, isWebUrl, normalizeWebUrl } from '../domain/links/quick-links';
import { instant } from './common';

/** The quick-links endpoints' contract. */

const title = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .max(QUICK_LINK_TITLE_MAX, `must be at most ${QUICK_LINK_TITLE_MAX} characters`);
const url = z
  .string({ error: 'URL is required' })
  .transform(normalizeWebUrl)
  .refine((value) => value.length > 0, 'URL is required')
  .refine(isWebUrl, 'Only http and https addresses can be quick links');
const icon = z.string().trim().max(QUICK_LINK_ICON_MAX, `must be at most ${QUICK_LINK_ICON_MAX} characters`).nullable().optional();

/** POST /api/quick-links */
export const quickLinkInput = z.object({ title, url, icon: icon.transform((value) => value || null) });
/** PATCH /api/quick-links/:id. A missing icon leaves it as it is; an empty one clears it. */
export const quickLinkPatch = z
  .object({
    title: title.optional(),
    url: url.optional(),
    icon: icon.transform((value) => (value === undefined ? undefined : value || null)),
  })
  .refine((p) => p.title !== undefined || p.url !== undefined || p.icon !== undefined, 'Nothing to update');
/** POST /api/quick-links/reorder */
export const reorderInput = z.object({
  ids: z
    .array(z.uuid('ids must be quick link ids'))
    .min(1, 'ids: give the links in their new order')
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, 'ids must not repeat a link'),
});
/** POST /api/quick-links/import: the legacy browser list moved to the server. */
export const importInput = z.object({
  links: z.array(quickLinkInput).max(200, 'at most 200 links at once'),
  only_if_empty: z.boolean().default(false),
});
export const quickLinkIdParam = z.object({ id: z.uuid('id must be a quick link id') });

/** One link, as every quick-links endpoint answers it. */
export const quickLink = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  url: z.string(),
  icon: z.string().nullable(),
  position: z.number().int(),
  created_at: instant,
});
/** GET /api/quick-links, POST /api/quick-links/reorder */
export const quickLinkList = z.array(quickLink);
/** POST /api/quick-links/import and /defaults */
export const quickLinkImport = z.strictObject({ imported: z.number().int().nonnegative(), links: quickLinkList });

export type QuickLinkBody = z.input<typeof quickLinkInput>;
export type QuickLink = z.infer<typeof quickLink>;
export type QuickLinkImport = z.infer<typeof quickLinkImport>;
