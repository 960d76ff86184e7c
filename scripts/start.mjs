// `npm start`: build the web app if its sources changed, then run the server in THIS process, so the SIGTERM or
// SIGINT that npm forwards reaches the server directly and it closes the database cleanly.
import './build-if-needed.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../src/server/main.ts');
