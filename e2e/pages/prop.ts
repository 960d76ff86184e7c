import type { Locator, Page } from 'playwright-core';
import { formatDay } from '../../src/domain/dates';

/** The dashboard's Prop Accounts widget. */
export class PropAccountsWidget {
  constructor(readonly page: Page) {}

  get root() {
    return this.page.getByTestId('widget-prop-accounts');
  }
  get lines() {
    return this.root.getByTestId('prop-widget-line');
  }
  line(name: string): Locator {
    return this.lines.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }
  /** Each line's account name and state (ok, near, broken), in order. */
  async lineStates(): Promise<Array<[string, string]>> {
    const lines = await this.lines.all();
    return Promise.all(
      lines.map(
        async (line) => [(await line.getByRole('link').innerText()).trim(), (await line.getAttribute('data-state')) ?? ''] as [string, string],
      ),
    );
  }
  async open(name: string) {
    await this.line(name).getByRole('link', { name, exact: true }).click();
  }
  /** Adds the widget from the dashboard's Add widget menu. */
  async addToDashboard() {
    await this.page.getByRole('button', { name: 'Add widget' }).click();
    await this.page.getByRole('menuitem', { name: 'Prop Accounts' }).click();
    await this.root.waitFor();
  }
}

/** An account's prop status page, /prop/:id. */
export class PropAccountPage {
  constructor(readonly page: Page) {}

  async ready() {
    await this.page.getByTestId('prop-account-page').waitFor();
  }
  async text(testId: string): Promise<string> {
    return (await this.page.getByTestId(testId).innerText()).trim();
  }
  rule(key: string): Locator {
    return this.page.locator(`[data-testid="prop-rule"][data-rule="${key}"]`);
  }
  async ruleKeys(): Promise<string[]> {
    return this.page.getByTestId('prop-rule').evaluateAll((rules) => rules.map((r) => r.getAttribute('data-rule') ?? ''));
  }
  async ruleFigure(key: string): Promise<string> {
    return (await this.rule(key).getByTestId('prop-rule-figure').innerText()).trim();
  }
  async ruleState(key: string): Promise<string | null> {
    return this.rule(key).getAttribute('data-state');
  }
  async openRuleTrades(key: string) {
    await this.rule(key)
      .getByRole('button', { name: /^Trades/ })
      .click();
  }
  get chart() {
    return this.page.getByTestId('prop-timeline').locator('.recharts-surface').first();
  }
  async dayRows(): Promise<Locator[]> {
    return this.page.getByTestId('prop-days').locator('tbody tr').all();
  }
  /** A trading day's row of the day table. */
  dayRow(day: string): Locator {
    return this.page
      .getByTestId('prop-days')
      .locator('tbody tr')
      .filter({ has: this.page.getByRole('button', { name: this.longDay(day), exact: true }) });
  }
  /** A day row's cell under the column of that label. */
  async cell(row: Locator, label: string): Promise<string> {
    return (await row.locator(`td[data-label="${label}"]`).innerText()).trim();
  }
  /** The chart's y-axis labels (recharts draws every axis label in a layer of its own: the y axis's are right-aligned). */
  async axisTicks(): Promise<string[]> {
    const texts = await this.page
      .getByTestId('prop-timeline')
      .locator('text.recharts-cartesian-axis-tick-value[text-anchor="end"]')
      .allTextContents();
    return texts.map((t) => t.trim()).filter((t) => t !== '');
  }
  /** Whether the element of one test id comes before another's in the page. */
  async precedes(first: string, second: string): Promise<boolean> {
    const a = this.page.getByTestId(first);
    const b = await this.page.getByTestId(second).elementHandle();
    return a.evaluate((node, other) => Boolean(other && node.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING), b);
  }
  get drawer() {
    return this.page.getByRole('dialog').filter({ has: this.page.getByTestId('prop-day-trades-table') });
  }
  /** The net P&L of each trade in the drawer, in its order. */
  async drawerTrades(): Promise<string[]> {
    return (await this.drawer.getByTestId('prop-day-trade').locator('td:last-child').allInnerTexts()).map((t) => t.trim());
  }
  async highlighted(): Promise<string[]> {
    return (await this.drawer.locator('[data-highlight] td:last-child').allInnerTexts()).map((t) => t.trim());
  }
  longDay(day: string) {
    return formatDay(day, 'EEE, MMM d, yyyy');
  }

  get rulesEditor() {
    return this.page.getByRole('dialog', { name: 'Account Rules' });
  }
  async editRules() {
    await this.page.getByTestId('prop-rules-edit').click();
    await this.rulesEditor.waitFor();
  }
  async chooseTemplate(label: string) {
    await this.rulesEditor
      .getByRole('textbox', { name: 'Template' })
      .or(this.rulesEditor.getByRole('combobox', { name: 'Template' }))
      .first()
      .click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }
  async saveRules() {
    await this.page.getByTestId('prop-rules-save').click();
    await this.rulesEditor.waitFor({ state: 'hidden' });
  }
  async addLedgerEntry(kind: string, amount: string) {
    const form = this.page.getByTestId('prop-ledger-form');
    await form
      .getByRole('textbox', { name: 'Kind' })
      .or(form.getByRole('combobox', { name: 'Kind' }))
      .first()
      .click();
    await this.page.getByRole('option', { name: kind, exact: true }).click();
    await form.getByRole('textbox', { name: 'Amount' }).fill(amount);
    await form.getByRole('button', { name: 'Add Entry' }).click();
    await this.page.getByTestId('prop-ledger-entries').getByText(kind).first().waitFor();
  }
}
