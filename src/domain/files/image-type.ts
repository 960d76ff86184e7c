/**
 * The image type of a file from its first bytes, never from its name or the browser's claim.
 * Uploads accept JPEG, PNG, WebP and GIF.
 */
export type ImageType = { mime: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif'; ext: 'jpg' | 'png' | 'webp' | 'gif' };

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);

export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return { mime: 'image/gif', ext: 'gif' };
  }
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return { mime: 'image/webp', ext: 'webp' };
  }
  return null;
}

/** The image types an upload accepts. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_TYPE_ERROR = 'Please upload a valid image file (JPEG, PNG, WebP, or GIF)';
export const IMAGE_SIZE_ERROR = 'Image must be smaller than 10MB';
