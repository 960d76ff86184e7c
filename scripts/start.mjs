// `npm start`: build the web app and the server if their sources changed, then run the compiled server in THIS
// process, so the SIGTERM or SIGINT that npm forwards reaches the server directly and it closes the database cleanly.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serverEntry } from './build-if-needed.mjs';

// `npm start` is how a self-hoster runs Edgebook: production unless told otherwise (`npm run dev` is development,
// where the captcha is skipped as the product requires). A .env file may still set NODE_ENV.
if (!process.env.NODE_ENV && !/^\s*NODE_ENV\s*=/m.test(readEnvFile())) process.env.NODE_ENV = 'production';

function readEnvFile() {
  try {
    return fs.readFileSync('.env', 'utf8');
  } catch {
    return '';
  }
}

await import(pathToFileURL(serverEntry).href);
