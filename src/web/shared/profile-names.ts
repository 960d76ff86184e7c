import type { Profile } from './api';

/**
 * The one name for a trader who has given none: the spec's welcome greeting says 'Trader',
 * and Profile Settings said 'User' for the same trader; one name everywhere.
 */
export const FALLBACK_NAME = 'Trader';

/** The welcome greeting. */
export function greetingName(profile: Profile | undefined): string {
  return profile?.display_name?.trim() || profile?.first_name?.trim() || FALLBACK_NAME;
}

/** The name Profile Settings shows: the display name, else the full name. */
export function profileName(profile: Profile | undefined): string {
  const full = [profile?.first_name, profile?.last_name].filter((p) => p && p.trim()).join(' ');
  return profile?.display_name?.trim() || full || FALLBACK_NAME;
}

/**
 * The picture to show. Only our own URLs: the CSP allows images from this origin, so a Google picture URL (another
 * origin) would be refused by the browser anyway.
 */
export function avatarSrc(profile: Profile | undefined): string | undefined {
  const url = profile?.profile_picture_url || profile?.google_profile_picture_url;
  return url && url.startsWith('/') ? url : undefined;
}
