import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** Decodes the parts of a MIME message nodemailer sends: quoted-printable and base64 text bodies. */
function decodeBody(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(headers)?.[1]?.trim().toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    text = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    text = Buffer.from(text, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject, text };
}

/** A real SMTP server on a loopback port that keeps what it receives, for tests of real emails. */
export async function startSmtpServer() {
  const inbox: ReceivedEmail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { subject, text } = decodeBody(Buffer.concat(chunks).toString('utf8'));
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          text,
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** Resolves with the first email to `to` matching `subject`, waiting for it to arrive. */
    async waitFor(to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedEmail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = inbox.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${to} matching ${subject} (inbox: ${inbox.map((m) => m.subject).join(', ')})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtpServer>>;

/** The first http(s) link in an email body. */
export function linkIn(email: ReceivedEmail): string {
  const match = /https?:\/\/\S+/.exec(email.text);
  if (!match) throw new Error(`no link in email: ${email.text}`);
  return match[0];
}
