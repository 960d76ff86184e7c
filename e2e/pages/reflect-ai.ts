import type { Locator, Page } from 'playwright-core';

/** The ReflectAI chat page. */
export class ReflectAiPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/reflect-ai');
    await this.ready();
  }

  /** The page is up and the conversation (or the welcome screen) has loaded. */
  async ready() {
    await this.page.getByRole('heading', { name: 'ReflectAI', level: 1 }).waitFor();
    await this.page.locator('[data-testid="chat-welcome"], [data-testid="chat-messages"]').first().waitFor();
  }

  get input() {
    return this.page.getByTestId('chat-input');
  }
  get sendButton() {
    return this.page.getByTestId('chat-send');
  }
  get stopButton() {
    return this.page.getByTestId('chat-stop');
  }
  get welcome() {
    return this.page.getByTestId('chat-welcome');
  }
  get greeting() {
    return this.page.getByTestId('chat-greeting');
  }
  get userMessages() {
    return this.page.getByTestId('user-message');
  }
  get answers() {
    return this.page.getByTestId('answer');
  }
  get lastAnswer() {
    return this.answers.last();
  }
  get title() {
    return this.page.getByTestId('session-title');
  }
  get newChat() {
    return this.page.getByTestId('new-chat');
  }
  get deepThink() {
    return this.page.getByRole('switch', { name: 'DeepThink' });
  }
  get historyDialog() {
    return this.page.getByRole('dialog', { name: 'Chat History' });
  }
  get deleteDialog() {
    return this.page.getByRole('dialog', { name: 'Delete chat' });
  }
  get scroller() {
    return this.page.getByTestId('chat-scroller');
  }

  /** Types a question and presses Enter. */
  async ask(question: string) {
    await this.input.fill(question);
    await this.input.press('Enter');
  }

  /** Waits until the last answer has finished streaming (complete, stopped or failed). */
  async answered(): Promise<Locator> {
    const answer = this.answers.last();
    await answer.and(this.page.locator(':not([data-status="streaming"])')).waitFor();
    return answer;
  }

  async openHistory() {
    await this.page.getByTestId('open-history').click();
    await this.historyDialog.waitFor();
    await this.historyDialog.getByTestId('history-session').first().waitFor();
  }

  async menu(item: 'Rename chat' | 'Clear chat' | 'Delete chat') {
    await this.page.getByTestId('chat-menu').click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  async rename(title: string) {
    await this.page.getByRole('button', { name: 'Rename chat' }).click();
    const input = this.page.getByTestId('rename-input');
    await input.fill(title);
    await input.press('Enter');
    await input.waitFor({ state: 'hidden' });
  }

  toast(text: string): Locator {
    return this.page.locator('.mantine-Notification-root').filter({ hasText: text });
  }
}
