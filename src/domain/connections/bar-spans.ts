/**
 * Which one-minute bars a broker connection fetches for replay. A trade replays from a few
 * minutes before its entry to a few after its exit; the spans of one contract that overlap or nearly touch are read in
 * one request, since the provider counts requests (not bars) against its rate limit.
 */

const MINUTE = 60_000;
/** Minutes of context on either side of a trade. */
export const BAR_PADDING_MINUTES = 5;
/** Spans closer than this are read together: one request for a morning's trades rather than one each. */
const JOIN_GAP_MINUTES = 60;

export interface TradeSpan {
  /** Epoch ms. */
  entry: number;
  exit: number;
}

/** Epoch ms, minute starts, both ends included. */
export interface BarSpan {
  from: number;
  to: number;
}

const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

/** The minutes a trade's replay shows: from its entry's minute, padded, to its exit's, padded. */
export function barSpanOf(trade: TradeSpan, padding = BAR_PADDING_MINUTES): BarSpan {
  const first = Math.min(trade.entry, trade.exit);
  const last = Math.max(trade.entry, trade.exit);
  return { from: floorMinute(first) - padding * MINUTE, to: floorMinute(last) + padding * MINUTE };
}

/** Spans of one contract joined where they overlap or lie within `joinGapMinutes` of each other, oldest first. */
export function joinBarSpans(spans: readonly BarSpan[], joinGapMinutes = JOIN_GAP_MINUTES): BarSpan[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from || a.to - b.to);
  const out: BarSpan[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.from <= last.to + joinGapMinutes * MINUTE) last.to = Math.max(last.to, span.to);
    else out.push({ ...span });
  }
  return out;
}
