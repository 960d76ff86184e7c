import type { Locator, Page } from 'playwright-core';

/** The dashboard's Quick Links widget. */
export class QuickLinksWidget {
  constructor(readonly page: Page) {}

  get root() {
    return this.page.getByTestId('widget-quick-links');
  }
  get links() {
    return this.root.getByTestId('quick-link');
  }
  link(title: string): Locator {
    return this.links.filter({ hasText: title });
  }
  async titles(): Promise<string[]> {
    return (await this.root.getByTestId('quick-link-anchor').allInnerTexts()).map((t) => t.trim());
  }

  /** Adds the widget from the dashboard's Add widget menu. */
  async addToDashboard() {
    await this.page.getByRole('button', { name: 'Add widget' }).click();
    await this.page.getByRole('menuitem', { name: 'Quick Links' }).click();
    await this.root.waitFor();
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  async fillForm(title: string, url: string) {
    await this.dialog.getByTestId('quick-link-title').fill(title);
    await this.dialog.getByTestId('quick-link-url').fill(url);
    await this.dialog.getByTestId('quick-link-save').click();
  }
}
