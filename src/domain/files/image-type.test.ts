import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

describe('image type from the file bytes (JPEG, PNG, WebP, GIF)', () => {
  it('recognises the four accepted formats by signature', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))?.mime).toBe('image/jpeg');
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))?.mime).toBe('image/png');
    expect(detectImageType(ascii('GIF89a......'))?.mime).toBe('image/gif');
    expect(detectImageType(ascii('GIF87a......'))?.ext).toBe('gif');
    expect(detectImageType(ascii('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))?.mime).toBe('image/webp');
  });

  it('refuses a text file renamed .png, an SVG, a truncated signature and an empty file', () => {
    expect(detectImageType(ascii('hello, this is not a picture'))).toBeNull();
    expect(detectImageType(ascii('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
    expect(detectImageType(ascii('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });
});
