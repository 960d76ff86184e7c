/** Where the trader's own uploaded images are served; a mentor cannot open that address. */
const TRADER_FILES = '/api/attachments/files/';

/**
 * An image address of the trader's as their mentor opens it: an uploaded file through the mentor's route (which checks
 * the grant and shows only images of what is shared), any other address (another site's image) as it is.
 */
export function mentorImageUrl(traderId: string, url: string): string {
  if (!url.startsWith(TRADER_FILES)) return url;
  return `/api/mentor/${encodeURIComponent(traderId)}/attachments/files/${url.slice(TRADER_FILES.length)}`;
}
