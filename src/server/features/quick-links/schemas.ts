import { z } from 'zod';
import { QUICK_LINK_ICON_MAX, QUICK_LINK_TITLE_MAX, isWebUrl, normalizeWebUrl } from '../../../domain/links/quick-links';

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

export const quickLinkInput = z.object({ title, url, icon: icon.transform((value) => value || null) });
// In a patch a missing icon leaves it as it is; an empty one clears it.
export const quickLinkPatch = z
  .object({
    title: title.optional(),
    url: url.optional(),
    icon: icon.transform((value) => (value === undefined ? undefined : value || null)),
  })
  .refine((p) => p.title !== undefined || p.url !== undefined || p.icon !== undefined, 'Nothing to update');
export const reorderInput = z.object({
  ids: z
    .array(z.uuid('ids must be quick link ids'))
    .min(1, 'ids: give the links in their new order')
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, 'ids must not repeat a link'),
});
/** The legacy browser list moved to the server (part 2 §7), only when the trader has no links yet. */
export const importInput = z.object({
  links: z.array(quickLinkInput).max(200, 'at most 200 links at once'),
  only_if_empty: z.boolean().default(false),
});
export const quickLinkIdParam = z.object({ id: z.uuid('id must be a quick link id') });
