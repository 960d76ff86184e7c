import { describe, expect, it } from 'vitest';
import { applyMarkdownAction, imageMarkdown, insertBlock, placeDraft, type EditorState } from './markdown-toolbar';
import { getNoteTemplate } from '../../../domain/notes';

/** `|` marks the caret, `«` and `»` a selection, in these readable states. */
function state(marked: string): EditorState {
  if (marked.includes('|')) {
    const at = marked.indexOf('|');
    return { value: marked.replace('|', ''), selectionStart: at, selectionEnd: at };
  }
  const start = marked.indexOf('«');
  const end = marked.indexOf('»') - 1;
  return { value: marked.replace('«', '').replace('»', ''), selectionStart: start, selectionEnd: end };
}

function show(s: EditorState): string {
  if (s.selectionStart === s.selectionEnd) return `${s.value.slice(0, s.selectionStart)}|${s.value.slice(s.selectionStart)}`;
  return `${s.value.slice(0, s.selectionStart)}«${s.value.slice(s.selectionStart, s.selectionEnd)}»${s.value.slice(s.selectionEnd)}`;
}

const apply = (action: Parameters<typeof applyMarkdownAction>[0], marked: string) => show(applyMarkdownAction(action, state(marked)));

describe('markdown toolbar on the selection: H1, H2, bold, italic, code, quote, lists, checkbox, link', () => {
  it('bold wraps the selected words and keeps them selected; pressed again it unwraps them', () => {
    expect(apply('bold', 'Entered «too early» on NQ')).toBe('Entered **«too early»** on NQ');
    expect(apply('bold', 'Entered **«too early»** on NQ')).toBe('Entered «too early» on NQ');
    expect(apply('bold', 'Entered «**too early**» on NQ')).toBe('Entered «too early» on NQ');
  });

  it('italic and code without a selection insert a placeholder, selected for typing over', () => {
    expect(apply('italic', 'Bias: |')).toBe('Bias: _«italic text»_');
    expect(apply('code', 'Level |')).toBe('Level `«code»`');
  });

  it('code over several lines makes a fenced block', () => {
    expect(apply('code', 'Levels:\n«18250\n18190»')).toBe('Levels:\n```\n«18250\n18190»\n```\n');
  });

  it('H1 and H2 prefix the caret line, replace each other, and toggle off', () => {
    expect(apply('h1', 'Plan|')).toBe('# Plan|');
    expect(apply('h2', '# Plan|')).toBe('## Plan|');
    expect(apply('h2', '## Plan|')).toBe('Plan|');
    expect(apply('h1', 'first\nsec|ond\nthird')).toBe('first\n# sec|ond\nthird');
  });

  it('bullet, numbered and checkbox lists prefix every selected line, skipping blank ones, numbering 1, 2, 3', () => {
    expect(apply('bullet', '«wait for the open\n\nno revenge trades»')).toBe('«- wait for the open\n\n- no revenge trades»');
    expect(apply('numbered', '«ORB\nVWAP reclaim\nfade the high»')).toBe('«1. ORB\n2. VWAP reclaim\n3. fade the high»');
    expect(apply('checkbox', '«stop in\ntarget set»')).toBe('«- [ ] stop in\n- [ ] target set»');
  });

  it('a list mark replaces another one, and the same list toggles off', () => {
    expect(apply('numbered', '«- one\n- two»')).toBe('«1. one\n2. two»');
    expect(apply('bullet', '«- one\n- two»')).toBe('«one\ntwo»');
    expect(apply('checkbox', '«- [ ] one\n- [ ] two»')).toBe('«one\ntwo»');
    expect(apply('bullet', '«- [ ] one»')).toBe('«- one»');
  });

  it('quote prefixes the lines and toggles off', () => {
    expect(apply('quote', '«Cut losers fast»')).toBe('«> Cut losers fast»');
    expect(apply('quote', '«> a\n> b»')).toBe('«a\nb»');
  });

  it('a selection that ends at the start of the next line does not take that line in', () => {
    expect(apply('bullet', '«one\n»two')).toBe('«- one»\ntwo');
  });

  it('link turns the selection into link text with the address selected, and a selected address into the url', () => {
    const text = applyMarkdownAction('link', state('see «chart» here'));
    expect(text.value).toBe('see [chart](https://) here');
    expect(text.value.slice(text.selectionStart, text.selectionEnd)).toBe('https://');
    const url = applyMarkdownAction('link', state('«https://tradingview.com/x»'));
    expect(url.value).toBe('[link text](https://tradingview.com/x)');
    expect(url.value.slice(url.selectionStart, url.selectionEnd)).toBe('link text');
    const empty = applyMarkdownAction('link', state('|'));
    expect(empty.value).toBe('[link text](https://)');
    expect(empty.value.slice(empty.selectionStart, empty.selectionEnd)).toBe('link text');
  });

  it('a selection past the end of the text is clamped, not an exception', () => {
    expect(applyMarkdownAction('bold', { value: 'abc', selectionStart: 1, selectionEnd: 99 }).value).toBe('a**bc**');
  });
});

describe('inserting a block (a template or an image) at the caret', () => {
  it('into an empty body, as the whole body', () => {
    expect(show(insertBlock(state('|'), '## Plan\n- a'))).toBe('## Plan\n- a|\n');
  });

  it('in the middle of text, on lines of its own with a blank line either side', () => {
    expect(show(insertBlock(state('before|after'), 'BLOCK'))).toBe('before\n\nBLOCK|\n\nafter');
    expect(show(insertBlock(state('before\n|\nafter'), 'BLOCK'))).toBe('before\n\nBLOCK|\n\nafter');
  });
});

describe("where 'Write with AI' writes its draft", () => {
  /** The note as it reads once the draft 'DRAFT' has been written in. */
  const withDraft = (marked: string) => {
    const { before, lead, trail, after } = placeDraft(state(marked));
    return `${before}${lead}DRAFT${trail}${after}`;
  };

  it("puts it on a new line under a template's heading, from a caret before or inside the heading", () => {
    const template = insertBlock({ value: '', selectionStart: 0, selectionEnd: 0 }, getNoteTemplate('intra-day-check-in')!.body).value;
    const [heading, ...rest] = template.split('\n');
    const expected = `${heading}\n\nDRAFT\n\n${rest.slice(1).join('\n')}`;
    expect(withDraft(`|${template}`)).toBe(expected);
    expect(withDraft(`## Intra-|day Check-in${template.slice(heading!.length)}`)).toBe(expected);
    expect(withDraft(`${heading}|${template.slice(heading!.length)}`)).toBe(expected);
  });

  it('starts on a line of its own after text, and keeps the text after it on a line of its own', () => {
    expect(withDraft('Felt calm.|')).toBe('Felt calm.\n\nDRAFT');
    expect(withDraft('Felt calm.\n|')).toBe('Felt calm.\n\nDRAFT');
    expect(withDraft('Entry late|, held well.')).toBe('Entry late\n\nDRAFT\n\n, held well.');
    expect(withDraft('|Plain first line.')).toBe('DRAFT\n\nPlain first line.');
    expect(withDraft('|')).toBe('DRAFT');
  });

  it('replaces a selection, even one inside a heading', () => {
    expect(withDraft('Intro\n\n«old words»\n\nEnd')).toBe('Intro\n\nDRAFT\n\nEnd');
    expect(withDraft('## «Plan»')).toBe('## \n\nDRAFT');
  });
});

describe('image markdown', () => {
  it('keeps the alt text and the address from breaking out of the image syntax', () => {
    expect(imageMarkdown('/api/attachments/files/a.png', 'chart [1]')).toBe('![chart  1](</api/attachments/files/a.png>)');
    expect(imageMarkdown('https://x.test/a b>.png')).toBe('![image](<https://x.test/a%20b%3E.png>)');
  });
});

describe('a note template inserted by its button', () => {
  it('inserted after existing text, the outline keeps the text and follows a blank line', () => {
    const body = 'Slept badly.';
    const next = insertBlock({ value: body, selectionStart: body.length, selectionEnd: body.length }, getNoteTemplate('intra-day-check-in').body);
    expect(next.value.startsWith('Slept badly.\n\n## Intra-day Check-in\n')).toBe(true);
  });
});
