import type { Locator, Page } from 'playwright-core';

/** The landing page at /intro. */
export class IntroPage {
  constructor(readonly page: Page) {}

  get nav() {
    return this.page.getByRole('navigation', { name: 'Main' });
  }
  get getStarted() {
    return this.page.getByTestId('intro-get-started');
  }

  navLink(name: 'Home' | 'Features' | 'Sign In' | 'Sign Up'): Locator {
    return this.nav.getByRole('link', { name, exact: true });
  }

  /** Opens /intro and waits for the app to have taken over the drawn page (it marks the intro as seen). */
  async goto() {
    await this.page.goto('/intro');
    await this.getStarted.waitFor();
    await this.page.locator('html:not([data-prerendered])').waitFor({ state: 'attached' });
  }
}

/** /login: email, password, the server's message on failure. */
export class LoginPage {
  constructor(readonly page: Page) {}

  get email() {
    return this.page.getByLabel('Email');
  }
  get password() {
    return this.page.getByLabel('Password', { exact: true });
  }
  get submit() {
    return this.page.getByRole('button', { name: 'Sign In', exact: true });
  }
  get error() {
    return this.page.getByTestId('auth-error');
  }
  get unconfirmed() {
    return this.page.getByTestId('email-unconfirmed');
  }
  get forgotPassword() {
    return this.page.getByRole('link', { name: 'Forgot password?' });
  }
  get signUpLink() {
    return this.page.getByRole('link', { name: 'Sign up', exact: true });
  }
  get supportContact() {
    return this.page.getByTestId('support-contact');
  }

  async goto() {
    await this.page.goto('/login');
    await this.submit.waitFor();
  }

  async signIn(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }
}

/** /register: email, password and its confirmation. */
export class RegisterPage {
  constructor(readonly page: Page) {}

  get email() {
    return this.page.getByLabel('Email');
  }
  get password() {
    return this.page.getByLabel('Password', { exact: true });
  }
  get confirmation() {
    return this.page.getByLabel('Confirm Password');
  }
  get submit() {
    return this.page.getByRole('button', { name: 'Create Account' });
  }
  get error() {
    return this.page.getByTestId('auth-error');
  }
  get success() {
    return this.page.getByTestId('register-success');
  }

  async goto() {
    await this.page.goto('/register');
    await this.submit.waitFor();
  }

  async register(email: string, password: string, confirmation = password) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.confirmation.fill(confirmation);
    // The button is disabled until /api/config has answered (it says whether a captcha is needed).
    await this.page.waitForFunction(() => {
      const button = document.querySelector<HTMLButtonElement>('[data-testid="register-submit"]');
      return button !== null && !button.disabled;
    });
    await this.submit.click();
  }
}

/** /forgot-password: asks for a reset link. */
export class ForgotPasswordPage {
  constructor(readonly page: Page) {}

  get email() {
    return this.page.getByLabel('Email');
  }
  get submit() {
    return this.page.getByRole('button', { name: 'Send Reset Link' });
  }
  get success() {
    return this.page.getByTestId('forgot-success');
  }
  get error() {
    return this.page.getByTestId('auth-error');
  }

  async goto() {
    await this.page.goto('/forgot-password');
    await this.submit.waitFor();
  }

  async requestLink(email: string) {
    await this.email.fill(email);
    await this.submit.click();
  }
}

/** /reset-password?token=...: the new password form, or the Invalid Reset Link screen. */
export class ResetPasswordPage {
  constructor(readonly page: Page) {}

  get password() {
    return this.page.getByLabel('New Password', { exact: true });
  }
  get confirmation() {
    return this.page.getByLabel('Confirm New Password');
  }
  get submit() {
    return this.page.getByRole('button', { name: 'Reset Password' });
  }
  get error() {
    return this.page.getByTestId('auth-error');
  }
  get success() {
    return this.page.getByTestId('reset-success');
  }
  get invalidLink() {
    return this.page.getByTestId('invalid-reset-link');
  }
  get requestNewLink() {
    return this.page.getByTestId('request-new-reset-link');
  }

  async setPassword(password: string, confirmation = password) {
    await this.password.fill(password);
    await this.confirmation.fill(confirmation);
    await this.submit.click();
  }
}
