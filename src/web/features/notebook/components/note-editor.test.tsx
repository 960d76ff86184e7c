import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Note } from '../../../shared/api';
import { APP_CONFIG, PREFERENCES } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { stubApi } from '../../../test/stub-api';
import { NoteEditor } from './note-editor';

const NOTE: Note = {
  id: '33333333-3333-4333-8333-333333333333',
  title: 'Monday review',
  folder_id: null,
  trade_id: null,
  journal_date: null,
  net_pl: null,
  stocks_traded: null,
  tags: [],
  created_at: '2025-03-03T21:00:00.000Z',
  updated_at: '2025-03-03T21:00:00.000Z',
  content: 'Chased the open.',
  trade: null,
  attachments: [],
};
const FOLDERS = [{ id: '44444444-4444-4444-8444-444444444444', name: 'Reviews', note_count: 3, created_at: '2025-01-01T00:00:00.000Z' }];
const TAGS = [{ id: '55555555-5555-4555-8555-555555555555', name: 'FOMO' }];

let requests: { method: string; path: string; body: Record<string, unknown> }[];

beforeEach(() => {
  requests = [];
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/config', () => HttpResponse.json(APP_CONFIG)),
    http.get('/api/note-folders', () => HttpResponse.json(FOLDERS)),
    http.get('/api/tags', () => HttpResponse.json(TAGS)),
  );
});

/** The server saves what it is sent, as a newer version. */
function acceptSaves() {
  const save = async ({ request }: { request: Request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    requests.push({ method: request.method, path: new URL(request.url).pathname, body });
    const tags = TAGS.filter((t) => (body.tag_ids as string[]).includes(t.id));
    return HttpResponse.json({
      ...NOTE,
      id: NOTE.id,
      title: body.title,
      content: body.content,
      folder_id: body.folder_id,
      tags,
      updated_at: '2025-03-04T09:00:00.000Z',
    });
  };
  stubApi.use(http.patch(`/api/notes/${NOTE.id}`, save), http.post('/api/notes', save));
}

function renderEditor(note: Note | null, defaultFolderId: string | null = null) {
  const props = { onSaved: vi.fn(), onDeleted: vi.fn(), onDirtyChange: vi.fn(), onReload: vi.fn(async () => undefined) };
  const view = renderWithApp(<NoteEditor note={note} defaultFolderId={defaultFolderId} {...props} />);
  /** The trader opens another folder while the editor stays. */
  const openFolder = (folderId: string | null) => view.rerender(<NoteEditor note={note} defaultFolderId={folderId} {...props} />);
  return { ...view, ...props, openFolder, save: () => screen.getByRole('button', { name: 'Save' }) };
}

describe('NoteEditor', () => {
  it('a saved note: Save is off until the words change, then sends them from the version they grew from', async () => {
    acceptSaves();
    const { user, save, onSaved, onDirtyChange } = renderEditor(NOTE);
    const body = await screen.findByLabelText('Note body');
    expect(save()).toBeDisabled();
    await user.type(body, ' Stopped.');
    expect(save()).toBeEnabled();
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
    expect(screen.getByTestId('note-preview')).toHaveTextContent('Chased the open. Stopped.');

    await user.click(save());
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: `/api/notes/${NOTE.id}`,
        body: { title: 'Monday review', content: 'Chased the open. Stopped.', folder_id: null, tag_ids: [], base_updated_at: NOTE.updated_at },
      },
    ]);
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(save()).toBeDisabled();
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
  });

  it('a new note goes in the folder being looked at, with the tags chosen, as a POST', async () => {
    acceptSaves();
    const { user, save, onDirtyChange, openFolder } = renderEditor(null, null);
    expect(await screen.findByText('New note')).toBeInTheDocument();
    openFolder(FOLDERS[0]!.id);
    expect(await screen.findByRole('combobox', { name: 'Folder' })).toHaveValue('Reviews');
    // Nothing written yet: nothing to lose, though Save is there.
    expect(save()).toBeEnabled();
    expect(onDirtyChange).not.toHaveBeenCalledWith(true);
    await user.type(screen.getByLabelText('Title'), 'Plan');
    await user.click(screen.getByRole('combobox', { name: 'Add tag' }));
    await user.click(await screen.findByRole('option', { name: 'FOMO' }));
    expect(screen.getByTestId('note-tag')).toHaveTextContent('FOMO');
    await user.click(save());
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/notes',
      body: { title: 'Plan', content: '', folder_id: FOLDERS[0]!.id, tag_ids: [TAGS[0]!.id] },
    });
  });

  it('a folder the trader chose for a new note stays when they open another folder', async () => {
    acceptSaves();
    const { user, save, openFolder } = renderEditor(null, null);
    await user.click(await screen.findByRole('combobox', { name: 'Folder' }));
    await user.click(await screen.findByRole('option', { name: 'Reviews' }));
    openFolder('66666666-6666-4666-8666-666666666666');
    await user.click(save());
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.body).toMatchObject({ folder_id: FOLDERS[0]!.id });
  });

  it('a save refused because the note changed elsewhere offers the choice, and Save mine over it sends the newer base', async () => {
    let calls = 0;
    stubApi.use(
      http.patch(`/api/notes/${NOTE.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        requests.push({ method: 'PATCH', path: '', body });
        calls += 1;
        if (calls === 1)
          return HttpResponse.json({ error: 'changed', code: 'note-changed', updated_at: '2025-03-04T07:00:00.000Z' }, { status: 409 });
        return HttpResponse.json({ ...NOTE, content: body.content, updated_at: '2025-03-04T09:00:00.000Z' });
      }),
    );
    const { user, save, onSaved } = renderEditor(NOTE);
    await user.type(await screen.findByLabelText('Note body'), ' Mine.');
    await user.click(save());
    expect(await screen.findByText('Saved somewhere else')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(requests.map((r) => r.body.base_updated_at)).toEqual([NOTE.updated_at, '2025-03-04T07:00:00.000Z']);
    expect(screen.queryByText('Saved somewhere else')).not.toBeInTheDocument();
  });

  it('a failed save says so and keeps the words to save again', async () => {
    stubApi.use(http.patch(`/api/notes/${NOTE.id}`, () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    const { user, save, onSaved } = renderEditor(NOTE);
    await user.type(await screen.findByLabelText('Note body'), ' Mine.');
    await user.click(save());
    expect(await screen.findByText('Save failed', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    expect(save()).toBeEnabled();
    expect(screen.getByLabelText('Note body')).toHaveValue('Chased the open. Mine.');
  });

  it('a template goes in at the caret, after a blank line, and makes the note dirty', async () => {
    const { user, save } = renderEditor(NOTE);
    const body = await screen.findByLabelText('Note body');
    await user.click(body);
    await user.keyboard('{Control>}{End}{/Control}');
    await user.click(screen.getByRole('button', { name: 'Intra-day Check-in' }));
    expect((body as HTMLTextAreaElement).value).toMatch(/^Chased the open\.\n\n## Intra-day Check-in\n/);
    expect(save()).toBeEnabled();
  });
});
