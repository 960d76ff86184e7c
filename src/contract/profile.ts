import { z } from 'zod';
import { instant } from './common';

/** The profile endpoints' contract: GET and PATCH /api/profile, POST /api/profile/avatar. */

const name = z.string().trim().max(100, 'must be at most 100 characters').nullable().optional();
/** PATCH /api/profile */
export const profilePatch = z.object({ display_name: name, first_name: name, last_name: name }).strict();
/** GET /api/profile/avatar/:file (a name that is none of ours is not found, 404). */
export const avatarFileParam = z.object({ file: z.string() });

export const profile = z.strictObject({
  display_name: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  profile_picture_url: z.string().nullable(),
  google_profile_picture_url: z.string().nullable(),
  user_customized: z.boolean(),
  updated_at: instant,
});

export type ProfilePatch = z.input<typeof profilePatch>;
export type Profile = z.infer<typeof profile>;
