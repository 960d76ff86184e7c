import { describe, expect, it } from 'vitest';
import { NOTE_TEMPLATES, getNoteTemplate } from './templates';

describe('note templates (the three template buttons insert outlines)', () => {
  it('are the three the spec names, in its order', () => {
    expect(NOTE_TEMPLATES.map((t) => t.label)).toEqual(['Intra-day Check-in', 'Pre-Market & Post-Session', 'Pre-Market Plan']);
  });

  it('each outline starts with its heading and has blanks or checkboxes to fill in', () => {
    for (const template of NOTE_TEMPLATES) {
      expect(template.body.startsWith('## ')).toBe(true);
      expect(template.body).toMatch(/- \[ \] |: $/m);
    }
    expect(getNoteTemplate('pre-market-post-session').body).toContain('## Post-Session');
  });

  it('an unknown template id is a programming error', () => {
    expect(() => getNoteTemplate('nope' as never)).toThrow(/unknown note template/);
  });
});
