import http from 'node:http';
import { freePort } from '../../src/server/free-port';

/**
 * A stand-in for hCaptcha's and Turnstile's siteverify endpoints on a loopback port. A token passes when it starts
 * with `pass-`; `status` makes it answer an HTTP error instead (the provider being down). Every request is kept, so
 * tests see what the server sent (the secret, the token, the client address) and that each token is asked once.
 */
export interface CaptchaVerifyServer {
  url: string;
  requests: Array<{ contentType: string; fields: Record<string, string> }>;
  status: number;
  close(): Promise<void>;
}

export async function startCaptchaVerifyServer(): Promise<CaptchaVerifyServer> {
  const port = await freePort('127.0.0.1');
  const state: CaptchaVerifyServer = {
    url: `http://127.0.0.1:${port}/siteverify`,
    requests: [],
    status: 200,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const contentType = req.headers['content-type'] ?? '';
    const fields: Record<string, string> = contentType.includes('json')
      ? (JSON.parse(text) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(text));
    state.requests.push({ contentType, fields });
    if (state.status !== 200) {
      res.writeHead(state.status).end();
      return;
    }
    const success = typeof fields.response === 'string' && fields.response.startsWith('pass-');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(success ? { success: true, hostname: '127.0.0.1' } : { success: false, 'error-codes': ['invalid-input-response'] }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return state;
}
