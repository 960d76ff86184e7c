import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { detectImageType, IMAGE_SIZE_ERROR, IMAGE_TYPE_ERROR, MAX_IMAGE_BYTES, type ImageType } from '../../domain/files/image-type';
import { badRequest, HttpError, notFound } from './errors';

/**
 * Image uploads (avatars, note and trade attachments) the same way everywhere: the body is
 * refused before it is read when it is too large, the type comes from the file's bytes, and a stored image is
 * served with the type of our own check and nosniff.
 */

/** Refuses oversized bodies before reading them (multipart overhead on top of the 10 MB image). */
export const imageBodyLimit = () => bodyLimit({ maxSize: MAX_IMAGE_BYTES + 64 * 1024, onError: (c) => c.json({ error: IMAGE_SIZE_ERROR }, 413) });

export interface ImageUpload {
  bytes: Uint8Array;
  type: ImageType;
  /** The other fields of the multipart form, as text. */
  fields: Record<string, string>;
}

/** Reads the multipart form's `file` as an image, or answers 400 (not an image) or 413 (too large). */
export async function readImageUpload(c: Context): Promise<ImageUpload> {
  const form = await c.req.parseBody().catch(() => null);
  const file = form?.file;
  if (!(file instanceof File)) throw badRequest('file: choose an image to upload');
  if (file.size > MAX_IMAGE_BYTES) throw new HttpError(413, IMAGE_SIZE_ERROR);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = detectImageType(bytes);
  if (!type) throw badRequest(IMAGE_TYPE_ERROR);
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(form ?? {})) if (typeof value === 'string') fields[key] = value;
  return { bytes, type, fields };
}

/**
 * A stored image, typed from its bytes; anything that is not one of our image types is not found. Kept an hour in the
 * browser unless the caller says otherwise (a shared link's images must stop with the link).
 */
export function sendImage(c: Context, bytes: Uint8Array | null, cacheControl = 'private, max-age=3600') {
  const type = bytes && detectImageType(bytes);
  if (!bytes || !type) throw notFound();
  c.header('Content-Type', type.mime);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', cacheControl);
  return c.body(bytes as Uint8Array<ArrayBuffer>);
}
