/**
 * "Every number an AI answer shows comes from our domain code" (the team's standard): the model is given figures and
 * told to copy them, and this checks that it did. Money ($1,234.56) and percentages (52.6%) in an answer are looked
 * up among the figures Edgebook gave it (the trade context and the tools' results); any that is not there, even
 * rounded, is reported so the page can mark it as not computed by Edgebook.
 */

const MONEY = /(?:[-−–]\s?)?\$\s?\d[\d,]*(?:\.\d+)?|\$\s?[-−–]\d[\d,]*(?:\.\d+)?/g;
const PERCENT = /[-−–]?\d+(?:\.\d+)?\s?%/g;

function toNumber(token: string): number {
  return Math.abs(Number(token.replace(/[^\d.]/g, '')));
}

function collect(text: string): { money: number[]; percent: number[] } {
  return {
    money: [...text.matchAll(MONEY)].map((m) => toNumber(m[0])),
    percent: [...text.matchAll(PERCENT)].map((m) => toNumber(m[0])),
  };
}

/** A figure matches a known one exactly, or as that figure rounded to fewer decimals (66.7% written as 67%). */
function known(value: number, figures: readonly number[]): boolean {
  const decimals = (value.toString().split('.')[1] ?? '').length;
  return figures.some((f) => Math.abs(f - value) < 1e-9 || Number(f.toFixed(decimals)) === value);
}

export function findUnverifiedFigures(answer: string, sources: readonly string[]): string[] {
  const given = collect(sources.join('\n'));
  const out: string[] = [];
  for (const match of answer.matchAll(MONEY)) {
    if (!known(toNumber(match[0]), given.money)) out.push(match[0].trim());
  }
  for (const match of answer.matchAll(PERCENT)) {
    // 100% and 0% are words as much as figures ("100% of your losses came from FOMO" is still checked: only if given).
    if (!known(toNumber(match[0]), given.percent)) out.push(match[0].trim());
  }
  return [...new Set(out)];
}
