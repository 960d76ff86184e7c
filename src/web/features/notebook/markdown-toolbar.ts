/**
 * The notebook's markdown toolbar (H1, H2, bold, italic, code, quote, bullet list, numbered list, checkbox, link),
 * acting on the text area's selection. Pure: text and selection in, text and the new selection out, so the editor can
 * put the caret back where the trader expects it.
 */
export type MarkdownAction = 'h1' | 'h2' | 'bold' | 'italic' | 'code' | 'quote' | 'bullet' | 'numbered' | 'checkbox' | 'link';

export const MARKDOWN_ACTIONS: readonly MarkdownAction[] = ['h1', 'h2', 'bold', 'italic', 'code', 'quote', 'bullet', 'numbered', 'checkbox', 'link'];

export interface EditorState {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

const INLINE: Partial<Record<MarkdownAction, { marker: string; placeholder: string }>> = {
  bold: { marker: '**', placeholder: 'bold text' },
  italic: { marker: '_', placeholder: 'italic text' },
  code: { marker: '`', placeholder: 'code' },
};

const LINE_PREFIX: Partial<Record<MarkdownAction, string>> = {
  h1: '# ',
  h2: '## ',
  quote: '> ',
  bullet: '- ',
  checkbox: '- [ ] ',
};

const HEADING = /^#{1,6} /;
const LIST_MARK = /^(?:- \[[ xX]\] |[-*+] |\d+\. )/;

function clampSelection(state: EditorState): EditorState {
  const length = state.value.length;
  const a = Math.max(0, Math.min(length, state.selectionStart));
  const b = Math.max(0, Math.min(length, state.selectionEnd));
  return { value: state.value, selectionStart: Math.min(a, b), selectionEnd: Math.max(a, b) };
}

/** Wraps the selection in a marker, or removes the marker when the selection is already wrapped (a toggle). */
function toggleInline(state: EditorState, marker: string, placeholder: string): EditorState {
  const { value, selectionStart: start, selectionEnd: end } = state;
  const selected = value.slice(start, end);
  const m = marker.length;
  // Already wrapped, the markers just outside the selection: unwrap.
  if (end > start && value.slice(start - m, start) === marker && value.slice(end, end + m) === marker) {
    return {
      value: value.slice(0, start - m) + selected + value.slice(end + m),
      selectionStart: start - m,
      selectionEnd: end - m,
    };
  }
  // The selection includes its markers: unwrap.
  if (selected.length >= 2 * m && selected.startsWith(marker) && selected.endsWith(marker)) {
    const inner = selected.slice(m, selected.length - m);
    return { value: value.slice(0, start) + inner + value.slice(end), selectionStart: start, selectionEnd: start + inner.length };
  }
  // Several lines of code become a fenced block.
  if (marker === '`' && selected.includes('\n')) {
    const before = start > 0 && value[start - 1] !== '\n' ? '\n' : '';
    const block = `${before}\`\`\`\n${selected}\n\`\`\`\n`;
    const innerStart = start + before.length + 4;
    return { value: value.slice(0, start) + block + value.slice(end), selectionStart: innerStart, selectionEnd: innerStart + selected.length };
  }
  const text = selected || placeholder;
  return {
    value: value.slice(0, start) + marker + text + marker + value.slice(end),
    selectionStart: start + m,
    selectionEnd: start + m + text.length,
  };
}

/** The start of the line holding `index` and the end of the line holding `end`. */
function lineRange(value: string, start: number, end: number): [number, number] {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  // A selection ending just after a newline does not take in the next line.
  const last = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const next = value.indexOf('\n', last);
  return [from, next === -1 ? value.length : next];
}

/**
 * Applies a line prefix to every line of the selection, or removes it when every line already has it. A heading
 * replaces another heading level; a list mark replaces another list mark. Numbered lists count 1, 2, 3...
 */
function toggleLines(state: EditorState, action: MarkdownAction): EditorState {
  const { value, selectionStart, selectionEnd } = state;
  const [from, to] = lineRange(value, selectionStart, selectionEnd);
  const lines = value.slice(from, to).split('\n');
  const prefixAt = (i: number) => (action === 'numbered' ? `${i + 1}. ` : LINE_PREFIX[action]!);
  const has = (line: string, i: number) =>
    action === 'numbered' ? /^\d+\. /.test(line) : action === 'bullet' ? /^[-*+] (?!\[[ xX]\] )/.test(line) : line.startsWith(prefixAt(i));
  const allHave = lines.every((line, i) => line.trim() === '' || has(line, i)) && lines.some((l) => l.trim() !== '');
  const existing = action === 'h1' || action === 'h2' ? HEADING : action === 'quote' ? /^> / : LIST_MARK;

  let counter = 0;
  const next = lines.map((line) => {
    if (allHave) return line.replace(existing, '');
    // Blank lines between selected lines stay blank (a list does not grow empty items), unless it is the only line.
    if (line.trim() === '' && lines.length > 1) return line;
    const prefix = prefixAt(counter);
    counter += 1;
    return prefix + line.replace(existing, '');
  });
  const replaced = next.join('\n');
  const result = value.slice(0, from) + replaced + value.slice(to);
  // A caret stays at the same place in its text; a selection becomes the whole changed lines.
  if (selectionStart === selectionEnd && lines.length === 1) {
    const caret = Math.max(from, selectionEnd + replaced.length - (to - from));
    return { value: result, selectionStart: caret, selectionEnd: caret };
  }
  return { value: result, selectionStart: from, selectionEnd: from + replaced.length };
}

const URL_LIKE = /^(https?:\/\/|www\.)\S+$/i;

/** `[text](url)`: the selection becomes the text (or the url, if it is one), and the part to fill in is selected. */
function insertLink(state: EditorState): EditorState {
  const { value, selectionStart: start, selectionEnd: end } = state;
  const selected = value.slice(start, end);
  if (URL_LIKE.test(selected.trim())) {
    const url = selected.trim();
    const inserted = `[link text](${url})`;
    return { value: value.slice(0, start) + inserted + value.slice(end), selectionStart: start + 1, selectionEnd: start + 10 };
  }
  const text = selected || 'link text';
  const inserted = `[${text}](https://)`;
  const urlStart = start + text.length + 3;
  return {
    value: value.slice(0, start) + inserted + value.slice(end),
    selectionStart: selected ? urlStart : start + 1,
    selectionEnd: selected ? urlStart + 'https://'.length : start + 1 + text.length,
  };
}

export function applyMarkdownAction(action: MarkdownAction, input: EditorState): EditorState {
  const state = clampSelection(input);
  const inline = INLINE[action];
  if (inline) return toggleInline(state, inline.marker, inline.placeholder);
  if (action === 'link') return insertLink(state);
  return toggleLines(state, action);
}

/**
 * Inserts a block (a template, an image) at the caret on lines of its own, separated from the text around it by a
 * blank line; the caret ends after the block.
 */
export function insertBlock(input: EditorState, block: string): EditorState {
  const { value, selectionStart: start, selectionEnd: end } = clampSelection(input);
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before === '' ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const body = block.replace(/\n+$/, '');
  const tail = after === '' ? '\n' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const inserted = lead + body + tail;
  const caret = before.length + lead.length + body.length;
  return { value: before + inserted + after, selectionStart: caret, selectionEnd: caret };
}

/** Markdown for an image: the alt text cannot close the brackets, and the address cannot close the parentheses. */
export function imageMarkdown(url: string, alt = 'image'): string {
  const safeAlt = alt.replace(/[[\]\\\n]/g, ' ').trim() || 'image';
  return `![${safeAlt}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** Where a streamed draft goes: the text before it, the line break that opens it, and those that close it. */
export interface DraftPlace {
  before: string;
  lead: string;
  trail: string;
  after: string;
}

/**
 * Where 'Write with AI' writes its draft: at the caret (over the selection), on lines of its own, a blank line from
 * the text before and after it. A caret before or inside a heading (a template's '## Intra-day Check-in', where the
 * caret of a note never clicked into stays at its start) moves to the end of that heading line, so that the draft
 * comes on a new line under the heading instead of before it or running into it.
 */
export function placeDraft(input: EditorState): DraftPlace {
  const { value, selectionStart, selectionEnd } = clampSelection(input);
  let start = selectionStart;
  let end = selectionEnd;
  if (start === end) {
    const lineStart = value.lastIndexOf('\n', start - 1) + 1;
    const newline = value.indexOf('\n', start);
    const lineEnd = newline === -1 ? value.length : newline;
    if (HEADING.test(value.slice(lineStart, lineEnd))) start = end = lineEnd;
  }
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after === '' || after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  return { before, lead, trail, after };
}
