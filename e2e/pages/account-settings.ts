import type { Page } from 'playwright-core';

/** The sign-in pages' provider buttons, the provider's own sign-in form, and the two-factor step. */
export class SignInFlow {
  constructor(readonly page: Page) {}

  providerButton(label: string) {
    return this.page.getByRole('button', { name: label, exact: true });
  }
  get error() {
    return this.page.getByTestId('auth-error');
  }
  /** The test identity provider's page: type the email, then Continue or Cancel. */
  async atProvider(email: string, action: 'Continue' | 'Cancel' = 'Continue') {
    await this.page.getByTestId('idp-email').waitFor();
    await this.page.getByTestId('idp-email').fill(email);
    await this.page.getByRole('button', { name: action }).click();
  }
  get twoFactorStep() {
    return this.page.getByTestId('two-factor-step');
  }
  async enterSecondFactor(code: string) {
    await this.page.getByTestId('two-factor-code').fill(code);
    await this.page.getByTestId('two-factor-submit').click();
  }
}

/** Profile Settings, opened from the dashboard's profile card: Profile, Security, Your Data and Shared Links tabs. */
export class AccountSettings {
  constructor(readonly page: Page) {}

  get dialog() {
    return this.page.getByRole('dialog', { name: 'Profile Settings' });
  }
  async open(tab: 'Security' | 'Your Data' | 'Shared Links') {
    await this.page.goto('/');
    await this.page.getByRole('button', { name: 'Profile settings' }).click();
    await this.dialog.getByRole('tab', { name: tab }).click();
  }
}
