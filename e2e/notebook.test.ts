import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import { NotebookPage } from './pages/notebook';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import type { E2E } from './support/browser';
import { eventually, useAppTheme, useE2ESuite } from './support/scenario';

/**
 * The notebook and the daily journal as a trader uses them in Chromium (the
 * notebook and /journal): folders, notes with tags and templates, the markdown toolbar, images by
 * URL, file and paste, search and the tag filter, two journal days beside their P&L, and nothing a note says runs.
 */

const suite = useE2ESuite();

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function trader(options?: Parameters<E2E['newContext']>[0]) {
  const s = await suite.scenario(options);
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, page: s.page, notebook: new NotebookPage(s.page) };
}

async function api<T = any>(client: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

/** Pastes an image file into the focused element, as a screenshot tool's copy would. */
async function pasteImage(page: Page, selector: string, bytes: Buffer, name: string) {
  await page.locator(selector).evaluate(
    (el, [base64, fileName]) => {
      const raw = Uint8Array.from(atob(base64!), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([raw], fileName!, { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [bytes.toString('base64'), name],
  );
}

describe('notebook', () => {
  it('creates a folder and a tagged note from a template, formats it with the toolbar and saves it', async () => {
    const { client, page, notebook } = await trader();
    await notebook.goto();
    await notebook.folders.getByTestId('folders-empty').waitFor();
    expect(await notebook.folders.getByTestId('folders-empty').innerText()).toBe('No folders');
    await page.getByTestId('notes-empty').waitFor();
    expect(await page.getByTestId('notes-empty').innerText()).toBe('No notes found');

    // A blank folder name is ignored; a real one is created and opened.
    await notebook.folders.getByRole('button', { name: 'New folder' }).click();
    await notebook.answerPrompt('   ');
    await notebook.folders.getByRole('button', { name: 'New folder' }).click();
    await notebook.answerPrompt('Playbook');
    await notebook.folder('Playbook').waitFor();
    expect(await notebook.folders.getByTestId('folder-item').count()).toBe(1);
    // The folder list may redraw a moment before the new folder is opened.
    await eventually(() => notebook.folder('Playbook').getAttribute('aria-current')).toBe('true');

    // A new note: caption, template, toolbar.
    expect(await notebook.caption.innerText()).toBe('New note');
    await notebook.title.fill('ORB plan');
    await notebook.editor.getByRole('button', { name: 'Pre-Market Plan' }).click();
    expect(await notebook.body.inputValue()).toContain('## Pre-Market Plan\n\n### Market context');
    await notebook.preview.getByRole('heading', { name: 'Pre-Market Plan', level: 2 }).waitFor();

    await notebook.body.fill('wait for the break\nsize down after a loss');
    await notebook.selectInBody(9, 18); // "the break"
    await notebook.editor.getByRole('button', { name: 'Bold' }).click();
    expect(await notebook.body.inputValue()).toBe('wait for **the break**\nsize down after a loss');
    await notebook.selectInBody(0, (await notebook.body.inputValue()).length);
    await notebook.editor.getByRole('button', { name: 'Checkbox' }).click();
    expect(await notebook.body.inputValue()).toBe('- [ ] wait for **the break**\n- [ ] size down after a loss');
    expect(await notebook.preview.locator('input[type="checkbox"]').count()).toBe(2);
    expect(await notebook.preview.locator('strong').innerText()).toBe('the break');
    await notebook.body.press('End');
    await notebook.body.press('Control+End');
    await notebook.body.type('\nlevels');
    await notebook.selectInBody((await notebook.body.inputValue()).length - 6, (await notebook.body.inputValue()).length);
    await notebook.editor.getByRole('button', { name: 'Heading 2' }).click();
    expect(await notebook.body.inputValue()).toMatch(/\n## levels$/);

    // Tags: '+ Tag' asks for a name; the same tag twice is ignored.
    await notebook.editor.getByRole('button', { name: '+ Tag' }).click();
    await notebook.answerPrompt('A+ setup');
    await notebook.tags.filter({ hasText: 'A+ setup' }).waitFor();
    await notebook.editor.getByRole('button', { name: '+ Tag' }).click();
    await notebook.answerPrompt('A+ setup');
    await notebook.editor.getByRole('button', { name: '+ Tag' }).click();
    await notebook.answerPrompt('Patience');
    await eventually(() => notebook.tags.count()).toBe(2);

    await notebook.save();
    await notebook.toast('Saved').waitFor();
    await eventually(() => notebook.caption.innerText()).toMatch(/^Updated /);
    await notebook.row('ORB plan').waitFor();
    // The note is stored in the open folder with its two tags.
    const [stored] = (await api(client, 'GET', '/api/notes')).notes;
    expect(stored).toMatchObject({ title: 'ORB plan' });
    expect(stored.tags.map((t: { name: string }) => t.name)).toEqual(['A+ setup', 'Patience']);
    const folders = await api(client, 'GET', '/api/note-folders');
    expect(stored.folder_id).toBe(folders[0].id);
    expect(await notebook.row('ORB plan').getByTestId('note-row-tags').innerText()).toContain('A+ setup');

    // Removing a tag by its × and saving replaces the tag set.
    await notebook.editor.getByRole('button', { name: 'Remove tag Patience' }).click();
    await notebook.save();
    await eventually(async () => (await api(client, 'GET', `/api/notes/${stored.id}`)).tags.map((t: { name: string }) => t.name)).toEqual([
      'A+ setup',
    ]);

    // A reload opens the same note.
    await page.reload();
    await eventually(() => notebook.title.inputValue()).toBe('ORB plan');
  });

  it('attaches images by URL, by file and by paste, and renders them', async () => {
    const { client, page, notebook } = await trader();
    await notebook.goto();
    // Unsaved: nothing can be attached yet.
    expect(await notebook.attachments.getByTestId('note-attachments-add').isDisabled()).toBe(true);
    await notebook.title.fill('Screenshots');
    await notebook.save();
    await notebook.toast('Saved').waitFor();
    await eventually(() => notebook.attachments.getByTestId('note-attachments-add').isDisabled()).toBe(false);

    // An empty URL does nothing; a web address is attached.
    await notebook.attachments.getByTestId('note-attachments-add').click();
    await notebook.attachments.getByTestId('note-attachments-url').fill('https://charts.example.test/es.png');
    await notebook.attachments.getByTestId('note-attachments-add').click();
    await notebook.toast('Image attached').waitFor();
    await eventually(() => notebook.attachments.getByTestId('note-attachments-item').count()).toBe(1);

    // A file chosen from disk: stored and served back as an image.
    const chooser = page.waitForEvent('filechooser');
    await notebook.attachments.getByTestId('note-attachments-upload').click();
    await (await chooser).setFiles({ name: 'entry.png', mimeType: 'image/png', buffer: PNG });
    await eventually(() => notebook.attachments.getByTestId('note-attachments-item').count()).toBe(2);
    const uploaded = notebook.attachments.locator('img[src^="/api/attachments/files/"]');
    await eventually(() => uploaded.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);

    // A text file pretending to be an image is refused with the server's words.
    const chooser2 = page.waitForEvent('filechooser');
    await notebook.attachments.getByTestId('note-attachments-upload').click();
    await (await chooser2).setFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await notebook.toast('Please upload a valid image file (JPEG, PNG, WebP, or GIF)').waitFor();

    // A pasted screenshot is uploaded and shown in the body where the caret was.
    await notebook.body.fill('Entry:');
    await notebook.body.press('Control+End');
    await pasteImage(page, '[data-testid="note-editor"] textarea[aria-label="Note body"]', PNG, 'paste.png');
    await eventually(() => notebook.body.inputValue()).toMatch(/^Entry:\n\n!\[paste\]\(<\/api\/attachments\/files\/[0-9a-f-]+\.png>\)\n$/);
    await eventually(() => notebook.preview.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await notebook.save();
    const notes = (await api(client, 'GET', '/api/notes')).notes;
    const note = await api(client, 'GET', `/api/notes/${notes[0].id}`);
    expect(note.attachments.map((a: { uploaded: boolean }) => a.uploaded).sort()).toEqual([false, true, true]);
  });

  it('searches titles and bodies, filters by tag and by folder', async () => {
    const { client, page, notebook } = await trader();
    const folder = await api(client, 'POST', '/api/note-folders', { name: 'Reviews' });
    const fomo = await api(client, 'POST', '/api/tags', { name: 'FOMO' });
    await api(client, 'POST', '/api/notes', { title: 'Chased the open', content: 'FOMO entry on ES, no setup.', tag_ids: [fomo.id] });
    await api(client, 'POST', '/api/notes', { title: 'Breakout review', content: 'Good patience.', folder_id: folder.id });
    await api(client, 'POST', '/api/notes', { title: 'Lunch', content: 'Stayed flat; breakout failed later.' });
    await notebook.goto();
    await eventually(() => notebook.rowTitles()).toEqual(['Lunch', 'Breakout review', 'Chased the open']);

    await notebook.search.fill('breakout');
    // Ranked: the title match first.
    await eventually(() => notebook.rowTitles()).toEqual(['Breakout review', 'Lunch']);
    await notebook.search.fill('zzzz');
    await page.getByTestId('notes-empty').waitFor();
    await notebook.search.fill('');
    await eventually(() => notebook.rowTitles()).toHaveLength(3);

    await notebook.tagFilter.click();
    await page.getByRole('option', { name: 'FOMO' }).click();
    await eventually(() => notebook.rowTitles()).toEqual(['Chased the open']);
    await notebook.tagFilter.click();
    await page.getByRole('option', { name: 'All tags' }).click();
    await eventually(() => notebook.rowTitles()).toHaveLength(3);

    await notebook.folder('Reviews').click();
    await eventually(() => notebook.rowTitles()).toEqual(['Breakout review']);
    // Opening a row loads its title, body and tags.
    await notebook.row('Breakout review').click();
    await eventually(() => notebook.title.inputValue()).toBe('Breakout review');
    expect(await notebook.body.inputValue()).toBe('Good patience.');
  });

  it('deleting a folder asks first, says its notes stay, and keeps them', async () => {
    const { client, page, notebook } = await trader();
    const folder = await api(client, 'POST', '/api/note-folders', { name: 'Old' });
    await api(client, 'POST', '/api/notes', { title: 'Keep me', folder_id: folder.id });
    await notebook.goto();
    await notebook.folders.getByRole('button', { name: 'Folder actions for Old' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete folder "Old"?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Its 1 note stays in your notebook, without a folder.');
    await dialog.getByRole('button', { name: 'Delete folder' }).click();
    await notebook.folders.getByTestId('folders-empty').waitFor();
    await eventually(() => notebook.rowTitles()).toEqual(['Keep me']);
  });

  it("'Write with AI' says plainly that AI is not configured, and how to configure it", async () => {
    const { notebook, page } = await trader();
    await notebook.goto();
    await notebook.editor.getByRole('button', { name: 'Write with AI' }).click();
    const panel = page.getByTestId('ai-not-configured');
    await panel.waitFor();
    const text = await panel.innerText();
    expect(text).toContain('AI is not configured on this server.');
    for (const variable of ['AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL']) expect(text).toContain(variable);
    expect(await notebook.body.inputValue()).toBe('');
  });

  it('asks before leaving unsaved changes', async () => {
    const { client, page, notebook } = await trader();
    await api(client, 'POST', '/api/notes', { title: 'Other' });
    await notebook.goto();
    await notebook.title.fill('Draft');
    await notebook.row('Other').click();
    const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await notebook.title.inputValue()).toBe('Draft');
    await notebook.row('Other').click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await eventually(() => notebook.title.inputValue()).toBe('Other');
  });
});

describe('daily journal', () => {
  it("lists the trading days with their P&L, writes two days' notes, and shows a day without trades", async () => {
    const { client, page } = await trader();
    for (const [date, symbol, pnl] of [
      ['2025-03-03', 'NQ', '0.10'],
      ['2025-03-03', 'ES', '0.20'],
      ['2025-03-04', 'NQ', '-75.5'],
    ] as const) {
      await api(client, 'POST', '/api/trades', { date, period: 'AM', symbol, pnl });
    }
    await page.goto('/journal');
    const days = page.getByTestId('journal-day');
    await eventually(() => days.count()).toBe(2);
    // Newest first; the first is selected; P&L to two decimals, green at 0 or more, red below. Dates read
    // 'EEE MMM d', under their year when it is not this one.
    expect(await days.nth(0).getByTestId('journal-day-date').innerText()).toBe('Tue Mar 4');
    expect(await page.getByTestId('journal-year').allInnerTexts()).toEqual(['2025']);
    expect(await days.nth(0).getByTestId('journal-day-pnl').innerText()).toBe('-$75.50');
    expect(await days.nth(1).getByTestId('journal-day-pnl').innerText()).toBe('$0.30');
    // The first date is selected once the list has loaded (the day's pane follows: poll, a busy machine is slow).
    await eventually(() => days.nth(0).getAttribute('aria-current')).toBe('true');
    await eventually(() => page.getByTestId('journal-date').inputValue()).toBe('Tuesday, March 4, 2025');
    expect(await page.getByTestId('journal-date').getAttribute('readonly')).not.toBeNull();
    const colors = await days.getByTestId('journal-day-pnl').evaluateAll((els) => els.map((el) => getComputedStyle(el).color));
    expect(colors[0]).not.toBe(colors[1]);

    await page.getByTestId('journal-text').fill('Fought the trend all morning.');
    await page.getByTestId('journal-save').click();
    await page.getByRole('alert').filter({ hasText: 'Daily note saved' }).last().waitFor();

    await days.nth(1).click();
    await eventually(() => page.getByTestId('journal-date').inputValue()).toBe('Monday, March 3, 2025');
    await eventually(() => page.getByTestId('journal-text').inputValue()).toBe('');
    await page.getByTestId('journal-text').fill('Two small scalps.');
    await page.getByTestId('journal-save').click();
    await eventually(async () => (await api(client, 'GET', '/api/journal/days')).days.filter((d: { has_note: boolean }) => d.has_note).length).toBe(
      2,
    );

    // Both are notes in the 'Daily Journal' folder, titled with their dates.
    const folders = await api(client, 'GET', '/api/note-folders');
    expect(folders.map((f: { name: string; note_count: number }) => [f.name, f.note_count])).toEqual([['Daily Journal', 2]]);
    await days.nth(0).click();
    await eventually(() => page.getByTestId('journal-text').inputValue()).toBe('Fought the trend all morning.');

    // The date filter lists one date, even one without trades, to write about it: a Saturday review.
    await page.getByTestId('journal-filter').click();
    await page.getByRole('button', { name: '8 March 2025', exact: true }).click();
    await eventually(() => days.count()).toBe(1);
    expect(await days.nth(0).getByTestId('journal-day-date').innerText()).toBe('Sat Mar 8');
    expect(await page.getByTestId('journal-date').inputValue()).toBe('Saturday, March 8, 2025');
    await page.getByTestId('journal-text').fill('Weekend review');
    await page.getByTestId('journal-save').click();
    await page.getByRole('alert').filter({ hasText: 'Daily note saved' }).last().waitFor();
    await page.getByRole('button', { name: 'Clear date filter' }).click();
    await eventually(() => days.count()).toBe(3);
    expect(await days.nth(0).getByTestId('journal-day-date').innerText()).toBe('Sat Mar 8');
    expect(await days.nth(0).innerText()).toContain('No trades');
  });
});

describe('nothing a note says runs', () => {
  const PAYLOADS = [
    '<script>window.__xss = "script"</script>',
    '<img src=x onerror="window.__xss = \'img\'">',
    '<svg onload="window.__xss = \'svg\'"></svg>',
    '[click me](javascript:window.__xss=%22link%22)',
    '<a href="javascript:window.__xss=\'a\'">raw link</a>',
    '![pic](javascript:window.__xss=%22pic%22)',
    '<iframe src="javascript:window.__xss=\'iframe\'"></iframe>',
  ];

  it('in note titles, bodies, tags, folder names, journal text and image URLs', async () => {
    const { client, page, notebook } = await trader();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const evil = '<img src=x onerror="window.__xss=\'title\'">';
    const folder = await api(client, 'POST', '/api/note-folders', { name: `<script>window.__xss='folder'</script>` });
    const tag = await api(client, 'POST', '/api/tags', { name: '<b onmouseover=window.__xss=1>tag</b>' });
    const note = await api(client, 'POST', '/api/notes', { title: evil, content: PAYLOADS.join('\n\n'), folder_id: folder.id, tag_ids: [tag.id] });
    await api(client, 'POST', '/api/trades', { date: '2025-03-03', period: 'AM', symbol: 'NQ', pnl: 1 });
    await api(client, 'PUT', '/api/journal/2025-03-03', { content: PAYLOADS.join('\n') });
    expect((await client.post('/api/attachments', { note_id: note.id, url: 'javascript:window.__xss=1' })).status).toBe(400);

    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.title.inputValue()).toBe(evil);
    await notebook.preview.waitFor();
    // Titles and names are text.
    expect(await notebook.rows.getByTestId('note-row-title').allInnerTexts()).toContain(evil);
    await notebook.folders.getByText(`<script>window.__xss='folder'</script>`).waitFor();
    // Links that would run are not links; hovering and clicking everything in the preview runs nothing.
    const hrefs = await notebook.preview.locator('a').evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
    for (const href of hrefs) expect(href).not.toMatch(/^\s*javascript:/i);
    expect(await notebook.preview.locator('script, iframe, svg, [onerror], [onload], [onmouseover]').count()).toBe(0);
    for (const link of await notebook.preview.locator('a').all()) await link.click({ modifiers: ['Control'] }).catch(() => undefined);
    await notebook.tags.first().hover();

    await page.goto('/journal');
    await eventually(() => page.getByTestId('journal-text').inputValue()).toContain('<script>');

    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe('accessibility', () => {
  it.each([
    ['dark', 1440],
    ['light', 390],
  ] as const)('the notebook and the journal have no serious axe violations (%s, %i px)', async (colorScheme, width) => {
    const { client, page, notebook } = await trader({ colorScheme, width, height: 900 });
    await useAppTheme(page.context(), colorScheme);
    const folder = await api(client, 'POST', '/api/note-folders', { name: 'Playbook' });
    const tag = await api(client, 'POST', '/api/tags', { name: 'A+' });
    const trade = await api(client, 'POST', '/api/trades', { date: '2025-03-03', period: 'AM', symbol: 'NQ', pnl: -12 });
    const note = await api(client, 'POST', '/api/notes', {
      title: 'Plan',
      content: '## Levels\n\n- [ ] 18250',
      folder_id: folder.id,
      tag_ids: [tag.id],
      trade_id: trade.id,
    });
    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.title.inputValue()).toBe('Plan');
    const notebookViolations = await seriousA11yViolations(page);
    expect(notebookViolations, notebookViolations.join('\n')).toEqual([]);

    await page.goto('/journal');
    await page.getByTestId('journal-editor').waitFor();
    await page.getByTestId('journal-text').waitFor();
    const journalViolations = await seriousA11yViolations(page);
    expect(journalViolations, journalViolations.join('\n')).toEqual([]);
  });
});
