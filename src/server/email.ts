import nodemailer from 'nodemailer';
import type { Logger } from './logger';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** true when real email goes out (SMTP_URL set); false when emails are written to the server log. */
  delivers: boolean;
  send(email: Email): Promise<void>;
}

/**
 * Without SMTP (the embedded default) every email, reset links included, is written to the server log, so a single
 * trader on localhost is never stuck.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      delivers: false,
      async send(email) {
        options.logger.info({ email: { to: email.to, subject: email.subject, text: email.text } }, `email to ${email.to}: ${email.subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    delivers: true,
    async send(email) {
      await transport.sendMail({ from: options.from, ...email });
    },
  };
}
