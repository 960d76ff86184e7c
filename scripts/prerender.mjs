// Prerenders pages into dist/web after the web app's build (src/web/prerender.tsx says why): intro.html, the intro
// page whole, and dashboard.html, the signed-in dashboard's frame (shell and heading) that the app fills in.
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
  const { renderIntro, renderDashboardFrame } = await import(pathToFileURL(path.join(outDir, 'prerender.js')).href);
  const index = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  const manifest = JSON.parse(fs.readFileSync(path.join(web, '.vite', 'manifest.json'), 'utf8'));
  // The intro's own styles hold up the paint here, as the entry's do: the HTML uses their classes.
  const boot = bootScript(index);
  writePage(index, boot, { name: 'intro', page: renderIntro(), styles: manifest['features/intro/intro-page.tsx']?.css ?? [] });
  // The dashboard's frame uses the shell's classes only, which are the entry's. It stands in (frame()) until the app,
  // which draws the same heading in the same place, replaces it.
  writePage(index, boot, { name: 'dashboard', page: renderDashboardFrame(), styles: [], inert: true });
  fs.rmSync(outDir, { recursive: true, force: true });
}

/**
 * The app's code starts once the drawn page has painted, not before: on a slow phone its download and start would
 * otherwise come first (module scripts run before the first paint when they arrive early). A small script of our own
 * (the policy allows no inline script) imports the entry after the first frame. It is a classic script in the head,
 * run before the page below it is read, so the trader's theme is set before anything is drawn: a module script runs
 * only once the whole page is read, which may be after a first paint in the dark default. It preloads nothing: the
 * entry's imports and the page's chunk are asked for as the entry runs; preloading them here as well measured more
 * blocking time on Lighthouse's phone (0.82-0.88 against 0.89-0.91).
 */
function bootScript(index) {
  const entry = /\n\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(index);
  if (!entry) throw new Error('prerender: no entry script in index.html');
  const text = [
    "// Sets the trader's theme, then starts the app after the prerendered page has painted (scripts/prerender.mjs).",
    "try { if (localStorage.getItem('theme') === 'light') document.documentElement.setAttribute('data-mantine-color-scheme', 'light'); } catch {}",
    '{',
    '  let started = false;',
    `  const start = () => { if (!started) { started = true; void import(${JSON.stringify(entry[1])}); } };`,
    '  requestAnimationFrame(() => setTimeout(start, 0));',
    // A tab opened in the background draws no frame: start anyway.
    '  setTimeout(start, 500);',
    '}',
    '',
  ].join('\n');
  const file = `assets/prerender-boot-${crypto.createHash('sha256').update(text).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(web, file), text);
  return { entryTag: entry[0], file };
}

/**
 * A drawing that stands in for the app until it runs: it takes no clicks or focus (inert), is left out of the
 * accessibility tree (aria-hidden), and carries no test ids, so neither a screen reader nor a script driving the
 * browser takes it for the working page (a shortcut pressed on it would go nowhere).
 */
function frame(body) {
  return `<div inert aria-hidden="true">${body.replace(/ data-testid="[^"]*"/g, '')}</div>`;
}

function writePage(index, boot, { name, page, styles, inert = false }) {
  const links = styles.map((file) => `\n    <link rel="stylesheet" crossorigin href="/${file}">`).join('');
  // The page's title goes in the head, in place of the app's.
  const title = /<title>[^<]*<\/title>/.exec(page)?.[0];
  const body = title ? page.replace(title, '') : page;
  const html = index
    .replace(boot.entryTag, '')
    .replace(/\n\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<title>[^<]*<\/title>/, title ?? '<title>Edgebook</title>')
    .replace('<html lang="en">', `<html lang="en" data-mantine-color-scheme="dark" data-prerendered="${name}">`)
    .replace(/\n?\s*<\/head>/, `${links}\n    <script src="/${boot.file}"></script>\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${inert ? frame(body) : body}</div>`);
  if (html === index || !html.includes('data-prerendered')) throw new Error('prerender: index.html did not have the expected shape');
  fs.writeFileSync(path.join(web, `${name}.html`), html);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await prerender();
