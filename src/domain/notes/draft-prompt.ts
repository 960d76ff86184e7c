import { formatUsd, toCents, trimDecimalZeros } from '../money';
import { fenceTraderData, TRADER_DATA_RULE } from '../text';

/**
 * The prompt for 'Write with AI' in the notebook (notes drafting). Figures come from the
 * journal, never from the model: the linked trade's stored fields are given as they are, and the model is told to
 * leave a blank where a figure is missing rather than make one up.
 */
export const NOTE_DRAFT_SYSTEM = [
  'You help a futures day trader write notes in their trading journal (Edgebook).',
  'Write the note in GitHub-flavoured markdown, in the first person, as the trader: short headings, bullet points,',
  'and "- [ ]" checkboxes for rules, plans and follow-ups. Keep it concrete and brief.',
  'Use only the figures given below. Never compute, estimate or invent prices, P&L, statistics or times: where a',
  'figure is needed and not given, leave a blank like ___ for the trader to fill in.',
  'Answer with the note text only: no preamble, no code fence around it.',
  'The trader asks for what to write outside the fence below;',
  TRADER_DATA_RULE,
].join(' ');

/** How much of the note so far goes into the prompt (its end, where the draft continues). */
export const DRAFT_CONTEXT_CHARS = 6000;

export interface DraftTrade {
  symbol: string;
  /** yyyy-MM-dd, the trading day. */
  date: string;
  dayOfWeek: string;
  session: string;
  type: string;
  result: string;
  /** Decimal strings as stored. */
  pnl: string;
  commission: string;
  side: string | null;
  quantity: string | null;
  entryPrice: string | null;
  exitPrice: string | null;
  tags: string[];
  notes: string;
}

export interface DraftRequest {
  title: string;
  content: string;
  /** What the trader asked for, if anything. */
  instruction: string;
  trade: DraftTrade | null;
}

function describeTrade(trade: DraftTrade): string {
  const lines = [
    `Linked trade (exact figures from the journal): ${trade.symbol} on ${trade.date} (${trade.dayOfWeek}), session ${trade.session}` +
      (trade.type ? `, setup ${trade.type}` : '') +
      `, result ${trade.result}, net P&L ${formatUsd(toCents(trade.pnl))} after ${formatUsd(toCents(trade.commission))} commission.`,
  ];
  const execution = [
    trade.side && `side ${trade.side}`,
    trade.quantity && `quantity ${trimDecimalZeros(trade.quantity)}`,
    trade.entryPrice && `entry ${trimDecimalZeros(trade.entryPrice)}`,
    trade.exitPrice && `exit ${trimDecimalZeros(trade.exitPrice)}`,
  ].filter(Boolean);
  if (execution.length > 0) lines.push(`Execution: ${execution.join(', ')}.`);
  if (trade.tags.length > 0) lines.push(`Tags: ${trade.tags.join(', ')}.`);
  if (trade.notes.trim()) lines.push(`The trader's note on the trade: ${trade.notes.trim()}`);
  return lines.join('\n');
}

/**
 * The user message: what to write (the trader's request to the model), then, fenced as the trader's data (text.ts),
 * the title, the linked trade and the end of the note so far.
 */
export function buildNoteDraftPrompt(request: DraftRequest): string {
  const data = [`Note title: ${request.title.trim() || '(untitled)'}`];
  if (request.trade) data.push(describeTrade(request.trade));
  const content = request.content.trim();
  if (content) {
    const tail = content.length > DRAFT_CONTEXT_CHARS ? `...${content.slice(-DRAFT_CONTEXT_CHARS)}` : content;
    data.push(`The note so far (continue it; do not repeat it):\n---\n${tail}\n---`);
  }
  const ask = request.instruction.trim() ? `What to write: ${request.instruction.trim()}` : 'Write a useful draft for this note.';
  return `${ask}\n\n${fenceTraderData(data.join('\n\n'))}`;
}
