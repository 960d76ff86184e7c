import type { Locator, Page } from 'playwright-core';

/** The notebook. */
export class NotebookPage {
  constructor(readonly page: Page) {}

  async goto(query = '') {
    await this.page.goto(`/notebook${query}`);
    await this.page.getByRole('heading', { name: 'Notebook', level: 1 }).waitFor();
    await this.editor.waitFor();
  }

  get search() {
    return this.page.getByTestId('notes-search');
  }
  get newButton() {
    return this.page.getByTestId('note-new');
  }
  get folders() {
    return this.page.getByTestId('folder-column');
  }
  folder(name: string): Locator {
    return this.folders.getByTestId('folder-item').filter({ hasText: name });
  }
  get rows() {
    return this.page.getByTestId('note-row');
  }
  row(title: string | RegExp): Locator {
    return this.rows.filter({ has: this.page.getByTestId('note-row-title').filter({ hasText: title }) });
  }
  async rowTitles(): Promise<string[]> {
    return (await this.rows.getByTestId('note-row-title').allInnerTexts()).map((t) => t.trim());
  }
  get tagFilter() {
    return this.page.getByTestId('tag-filter');
  }

  // Editor
  get editor() {
    return this.page.getByTestId('note-editor');
  }
  get title() {
    return this.editor.getByTestId('note-title');
  }
  get body() {
    return this.editor.getByRole('textbox', { name: 'Note body' });
  }
  get preview() {
    return this.editor.getByTestId('note-preview');
  }
  get caption() {
    return this.editor.getByTestId('note-caption');
  }
  get saveButton() {
    return this.editor.getByTestId('note-save');
  }
  get tags() {
    return this.editor.getByTestId('note-tag');
  }
  get attachments() {
    return this.editor.getByTestId('note-attachments');
  }

  /** Selects characters [start, end) of the body, as a trader dragging over them would. */
  async selectInBody(start: number, end: number) {
    await this.body.evaluate(
      (el, [s, e]) => {
        const area = el as HTMLTextAreaElement;
        area.focus();
        area.setSelectionRange(s!, e!);
      },
      [start, end],
    );
  }

  async save() {
    await this.saveButton.click();
  }

  /** Answers the name prompt (folder, tag). */
  async answerPrompt(name: string) {
    const dialog = this.page.getByRole('dialog');
    await dialog.getByTestId('name-prompt-input').fill(name);
    await dialog.getByTestId('name-prompt-submit').click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** The newest toast with this text (a new toast replaces the current one, which is still leaving the page). */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('alert').filter({ hasText: text }).last();
  }
}
