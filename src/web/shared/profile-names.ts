import type { Profile } from './api';

/** Spec part 1 §2.7: the welcome greeting falls back to 'Trader'. */
export function greetingName(profile: Profile | undefined): string {
  return profile?.display_name?.trim() || profile?.first_name?.trim() || 'Trader';
}

/** Spec part 1 §2.7: the default profile name falls back to 'User'. */
export function profileName(profile: Profile | undefined): string {
  const full = [profile?.first_name, profile?.last_name].filter((p) => p && p.trim()).join(' ');
  return profile?.display_name?.trim() || full || 'User';
}

/**
 * The picture to show. Only our own URLs: the CSP allows images from this origin, so a Google picture URL (another
 * origin) would be refused by the browser anyway.
 */
export function avatarSrc(profile: Profile | undefined): string | undefined {
  const url = profile?.profile_picture_url || profile?.google_profile_picture_url;
  return url && url.startsWith('/') ? url : undefined;
}
