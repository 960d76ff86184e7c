import { describe, expect, it } from 'vitest';
import { mentorImageUrl } from './mentor-image-url';

describe('mentorImageUrl', () => {
  it("sends the trader's uploaded images through the mentor's route and leaves another site's address alone", () => {
    expect(mentorImageUrl('t-1', '/api/attachments/files/a.png')).toBe('/api/mentor/t-1/attachments/files/a.png');
    expect(mentorImageUrl('t-1', 'https://x.test/api/attachments/files/b.png')).toBe('https://x.test/api/attachments/files/b.png');
    expect(mentorImageUrl('t-1', '/api/other/a.png')).toBe('/api/other/a.png');
  });
});
