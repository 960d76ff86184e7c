/**
 * The notebook's template buttons (Intra-day Check-in, Pre-Market &
 * Post-Session, Pre-Market Plan). Each button inserts its outline at the cursor.
 * Outlines are markdown with checkboxes and blanks to fill in, the way a trader writes a plan and a review.
 */
export type NoteTemplateId = 'intra-day-check-in' | 'pre-market-post-session' | 'pre-market-plan';

export interface NoteTemplate {
  id: NoteTemplateId;
  /** The button's label, as the spec words it. */
  label: string;
  body: string;
}

export const NOTE_TEMPLATES: readonly NoteTemplate[] = [
  {
    id: 'intra-day-check-in',
    label: 'Intra-day Check-in',
    body: [
      '## Intra-day Check-in',
      '',
      '- **Time:** ',
      '- **P&L so far:** ',
      '- **Trades taken:** ',
      '- [ ] Following my plan',
      '- [ ] Within my daily loss limit',
      '- **Emotional state (1-10):** ',
      '- **What the market is doing now:** ',
      '- **Adjustments for the rest of the session:** ',
    ].join('\n'),
  },
  {
    id: 'pre-market-post-session',
    label: 'Pre-Market & Post-Session',
    body: [
      '## Pre-Market',
      '',
      '- **Overnight / Globex range:** ',
      '- **Key levels:** ',
      '- **News and data today:** ',
      '- **Bias:** ',
      '- **A+ setup I am waiting for:** ',
      '',
      '## Post-Session',
      '',
      '- **Net P&L:** ',
      '- **Trades taken:** ',
      '- [ ] Followed my plan',
      '- [ ] Respected my stops',
      '- **What went well:** ',
      '- **What to improve:** ',
      '- **Lesson of the day:** ',
    ].join('\n'),
  },
  {
    id: 'pre-market-plan',
    label: 'Pre-Market Plan',
    body: [
      '## Pre-Market Plan',
      '',
      '### Market context',
      '- **Overnight / Globex range:** ',
      '- **Previous day high / low / close:** ',
      '- **Economic events (times):** ',
      '',
      '### Bias and scenarios',
      '- **Bias:** ',
      '- **If price holds above ___, then:** ',
      '- **If price breaks below ___, then:** ',
      '',
      '### Setups I will take',
      '- [ ] ',
      '',
      '### Risk',
      '- **Max loss today:** ',
      '- **Max trades:** ',
      '- **Size per trade:** ',
      '',
      '### Mindset',
      '- ',
    ].join('\n'),
  },
];

export function getNoteTemplate(id: NoteTemplateId): NoteTemplate {
  const template = NOTE_TEMPLATES.find((t) => t.id === id);
  if (!template) throw new Error(`unknown note template ${id}`);
  return template;
}
