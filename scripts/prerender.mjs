// Prerenders the intro page into dist/web/intro.html after the web app's build (src/web/prerender.tsx says why).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'dist', 'web');
const outDir = path.join(root, 'dist', 'prerender');

export async function prerender() {
  await build({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: path.join(root, 'src', 'web', 'prerender.tsx'), outDir, emptyOutDir: true, manifest: false, copyPublicDir: false },
  });
  const { renderIntro } = await import(pathToFileURL(path.join(outDir, 'prerender.js')).href);
  const index = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  const manifest = JSON.parse(fs.readFileSync(path.join(web, '.vite', 'manifest.json'), 'utf8'));
  // The page's own styles hold up the paint here, as the entry's do: the HTML uses their classes.
  const styles = (manifest['features/intro/intro-page.tsx']?.css ?? []).map((file) => `\n    <link rel="stylesheet" crossorigin href="/${file}">`).join('');
  let page = renderIntro();
  // The page's title goes in the head, in place of the app's.
  const title = /<title>[^<]*<\/title>/.exec(page)?.[0];
  if (title) page = page.replace(title, '');
  // The app's code starts once the drawn page has painted, not before: on a slow phone its download and start would
  // otherwise come first (the module scripts run before the first paint when they arrive early). A small module
  // of our own (the policy allows no inline script) imports the entry after the first frame.
  const entry = /\n\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(index);
  if (!entry) throw new Error('prerender: no entry script in index.html');
  const boot = [
    '// Starts the app after the prerendered /intro has painted (scripts/prerender.mjs), in the trader\'s theme at once.',
    "try { if (localStorage.getItem('theme') === 'light') document.documentElement.setAttribute('data-mantine-color-scheme', 'light'); } catch {}",
    'let started = false;',
    `const start = () => { if (!started) { started = true; void import(${JSON.stringify(entry[1])}); } };`,
    'requestAnimationFrame(() => setTimeout(start, 0));',
    // A tab opened in the background draws no frame: start anyway.
    'setTimeout(start, 500);',
    '',
  ].join('\n');
  const bootFile = `assets/intro-boot-${crypto.createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(web, bootFile), boot);
  const html = index
    .replace(entry[0], `\n    <script type="module" crossorigin src="/${bootFile}"></script>`)
    .replace(/\n\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<title>[^<]*<\/title>/, title ?? '<title>Edgebook</title>')
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="dark" data-prerendered="intro">')
    .replace(/\n?\s*<\/head>/, `${styles}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${page}</div>`);
  if (html === index || !html.includes('data-prerendered')) throw new Error('prerender: index.html did not have the expected shape');
  fs.writeFileSync(path.join(web, 'intro.html'), html);
  fs.rmSync(outDir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await prerender();
