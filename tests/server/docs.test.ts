import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The documentation holds: the README opens with the two commands a newcomer runs (and they exist), every relative
 * link in the Markdown reaches a file (and a heading, when it names one), and neither the docs nor any comment in the
 * code cites an issue number, a section of the product's requirements or the design notes instead of stating the rule.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...walk(rel, keep));
    } else if (keep(rel)) out.push(rel);
  }
  return out;
}

const markdown = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/history.md', ...walk('docs', (f) => f.endsWith('.md'))].filter((f) =>
  fs.existsSync(path.join(root, f)),
);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

/** Every link target of a Markdown file outside code: inline links and images. */
function linksOf(file: string): string[] {
  const text = read(file)
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** What a comment or a doc must not cite. */
const CITATIONS: Array<[string, RegExp]> = [
  ['an issue number', /\bissues?\s+#?\d+/i],
  ['an issue number', /(?:^|[\s(,])#\d{1,4}\b(?![\w-])/],
  ['a spec section', /\bspec(?:ification)?\s+part\b/i],
  ['a spec section', /\bpart\s+[12]\s*§/i],
  ['a section sign', /§/],
  ['the design notes', /\bDESIGN\.md\b/],
  ['the style notes', /\bSTYLE\.md\b/],
  ['the stack notes', /\bSTACK-NOTES\b/],
  ['the shared notes', /\/work\/shared/],
];

function citations(text: string): string[] {
  return CITATIONS.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
}

/** Every comment of a source file, found by TypeScript's parser (so strings and regular expressions are not read as comments). */
function commentsOf(file: string): Array<{ line: number; text: string }> {
  const text = read(file);
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const out: Array<{ line: number; text: string }> = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      out.push({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return out;
}

describe('the README', () => {
  const readme = read('README.md');

  it('opens with the command that installs and starts the app, and the one that runs every test', () => {
    const [, firstBlock] = /^# Edgebook\n\n```sh\n([\s\S]*?)\n```/.exec(readme) ?? [];
    expect(firstBlock, 'the README starts with a sh block right under its title').toBeDefined();
    const commands = firstBlock!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toBe('node scripts/start.mjs');
    expect(scripts.test).toMatch(/test:unit.*test:api.*test:e2e/);
  });

  it('stays short: at most 150 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });
});

describe('the docs', () => {
  it('link only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const link of linksOf(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
        const [target = '', anchor] = link.split('#');
        const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), decodeURI(target)));
        if (!fs.existsSync(path.join(root, resolved))) {
          broken.push(`${file}: ${link}`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('cite no issue number, spec section or design notes', () => {
    const found = markdown.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => citations(line).map((what) => `${file}:${i + 1} cites ${what}: ${line.trim()}`)),
    );
    expect(found).toEqual([]);
  });
});

describe('comments in the code', () => {
  const code = (f: string) => /\.(ts|tsx|mjs|cjs|js)$/.test(f);
  const sources = [
    ...['src', 'tests', 'e2e', 'scripts', 'bench'].flatMap((dir) => walk(dir, code)),
    ...fs.readdirSync(root).filter((f) => code(f) && fs.statSync(path.join(root, f)).isFile()),
  ];

  it('are found: the check reads the comments of every source file', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(commentsOf('tests/server/docs.test.ts').some((c) => c.text.includes('The documentation holds'))).toBe(true);
  });

  it('state their rules in our own words: no issue number, spec section or design notes cited', () => {
    const found = sources.flatMap((file) =>
      commentsOf(file).flatMap(({ line, text }) => citations(text).map((what) => `${file}:${line} cites ${what}: ${text.split('\n')[0]!.trim()}`)),
    );
    expect(found).toEqual([]);
    // Parsing every source file takes about 25 s alone; beside other test files on two cores, several times that.
  }, 240_000);
});
