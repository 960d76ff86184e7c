/** Small rules of the notes layer shared by the server and the notebook. */

export const NOTE_TITLE_MAX = 300;
export const NOTE_CONTENT_MAX = 200_000;
export const FOLDER_NAME_MAX = 100;
export const TAG_NAME_MAX = 50;

/** A note without a title is listed as Untitled. */
export function noteDisplayTitle(title: string | null | undefined): string {
  const text = (title ?? '').trim();
  return text === '' ? 'Untitled' : text;
}

/**
 * A folder or tag name as typed in a prompt: trimmed, inner runs of white space made one space;
 * blank after trimming is ignored (the caller gets '' and does nothing).
 */
export function normalizeName(name: string | null | undefined): string {
  return (name ?? '').replace(/\s+/g, ' ').trim();
}

/** Adding a tag already on the note is ignored. Keeps the order tags were added in. */
export function addTagOnce<T extends { id: string }>(tags: readonly T[], tag: T): T[] {
  return tags.some((t) => t.id === tag.id) ? [...tags] : [...tags, tag];
}

/** A list row shows up to 3 tags. */
export const LIST_ROW_TAGS = 3;
