/**
 * A folder's colour is derived from its id or name, among 16 colours.
 * The same folder keeps its colour on every device and after a reload, with nothing stored. Each colour reads as
 * a mark next to text on both the dark and the light theme.
 */
export const FOLDER_COLORS = [
  '#e03131', // red
  '#c2255c', // pink
  '#9c36b5', // grape
  '#6741d9', // violet
  '#3b5bdb', // indigo
  '#1971c2', // blue
  '#0c8599', // cyan
  '#099268', // teal
  '#2f9e44', // green
  '#66a80f', // lime
  '#e67700', // yellow (dark enough for a light background)
  '#e8590c', // orange
  '#a61e4d', // wine
  '#5f3dc4', // deep violet
  '#1864ab', // deep blue
  '#495057', // slate
] as const;

export type FolderColor = (typeof FOLDER_COLORS)[number];

/** FNV-1a over the UTF-16 code units: a stable, well-spread hash with no dependencies. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The folder's colour from its id (or, for a folder not saved yet, its name). */
export function getFolderColor(folder: { id?: string | null; name?: string | null }): FolderColor {
  const key = folder.id || folder.name || '';
  return FOLDER_COLORS[hashString(key) % FOLDER_COLORS.length]!;
}
