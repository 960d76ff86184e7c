import { afterAll, describe, expect, it } from 'vitest';
import { getNoteTemplate } from '../src/domain/notes';
import { aiEnv, startAiServer, type AiServer } from '../tests/support/ai-server';
import { NotebookPage } from './pages/notebook';
import { signedInTrader } from './pages/trade-log';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * 'Write with AI' in the notebook with a provider configured (the OpenAI-compatible test server, real HTTP and SSE):
 * the draft streams into the body at the caret, uses the linked trade's stored figures, and Stop ends it.
 */

let provider: AiServer | undefined;
const suite = useE2ESuite(async () => {
  provider = await startAiServer();
  return { env: aiEnv(provider) };
});
afterAll(() => provider?.close());

async function trader() {
  const s = await suite.scenario();
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, page: s.page, notebook: new NotebookPage(s.page) };
}

describe("'Write with AI'", () => {
  it('streams a draft into the note at the caret, with the linked trade given to the model', async () => {
    const { client, notebook, page } = await trader();
    const trade = (await client.post('/api/trades', { date: '2025-03-04', period: 'AM', symbol: 'NQ', pnl: '412.50' })).body;
    const note = (await client.post('/api/notes', { title: 'NQ review', content: 'Felt calm.', trade_id: trade.id })).body;
    provider!.clear();
    provider!.reply({ chunks: ['## What went well\n\n', '- Waited for ', 'the **break**'], delayMs: 250 });

    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.body.inputValue()).toBe('Felt calm.');
    await notebook.body.press('Control+End');
    await notebook.editor.getByRole('button', { name: 'Write with AI' }).click();
    await page.getByTestId('ai-instruction').fill('Review this trade');
    await page.getByTestId('ai-draft').click();
    // While it streams the trader can stop it, and the text grows in place.
    await page.getByTestId('ai-stop').waitFor();
    await eventually(() => notebook.body.inputValue()).toBe('Felt calm.\n\n## What went well\n\n- Waited for the **break**');
    await page.getByTestId('ai-write').waitFor();
    expect(await notebook.preview.locator('strong').innerText()).toBe('break');

    const [request] = provider!.completions();
    const user = request!.body.messages.find((m: { role: string }) => m.role === 'user').content as string;
    expect(user).toContain('What to write: Review this trade');
    expect(user).toContain('net P&L $412.50');
    await notebook.save();
    await eventually(async () => (await client.get(`/api/notes/${note.id}`)).body.content).toContain('## What went well');
  });

  it("writes under a template's heading in a note whose body was never clicked into (the draft ran into the heading)", async () => {
    const { client, notebook, page } = await trader();
    const template = getNoteTemplate('pre-market-plan')!.body;
    const note = (await client.post('/api/notes', { title: 'Plan', content: template })).body;
    provider!.clear();
    provider!.reply({ chunks: ['Levels first: ', 'overnight high and low.'] });
    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.body.inputValue()).toBe(template);
    await notebook.editor.getByRole('button', { name: 'Write with AI' }).click();
    await page.getByTestId('ai-draft').click();
    await page.getByTestId('ai-write').waitFor();
    const [heading, ...rest] = template.split('\n');
    await eventually(() => notebook.body.inputValue()).toBe(`${heading}\n\nLevels first: overnight high and low.\n\n${rest.slice(1).join('\n')}`);
  });

  it('Stop ends the draft, keeps what came, and closes the provider request', async () => {
    const { notebook, page } = await trader();
    provider!.clear();
    provider!.reply({ chunks: ['First line.', ' Second', ' third', ' fourth', ' fifth'], delayMs: 700 });
    await notebook.goto();
    await notebook.editor.getByRole('button', { name: 'Write with AI' }).click();
    await page.getByTestId('ai-draft').click();
    await eventually(() => notebook.body.inputValue()).toContain('First line.');
    await page.getByTestId('ai-stop').click();
    await provider!.waitForAbort(0);
    await page.getByTestId('ai-write').waitFor();
    const kept = await notebook.body.inputValue();
    expect(kept.startsWith('First line.')).toBe(true);
    expect(kept).not.toContain('fifth');
    // The body is editable again.
    await notebook.body.press('Control+End');
    await notebook.body.type(' Mine.');
    expect(await notebook.body.inputValue()).toBe(`${kept} Mine.`);
  });
});
