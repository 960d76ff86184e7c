/**
 * One cell of a pipe-separated table in a prompt: on one line, without the separator, cut to `max` characters, so a
 * note with line breaks or pipes cannot break the table a model reads.
 */
export function tableCell(text: string, max: number): string {
  const flat = text.replace(/[\r\n|]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** '1 win', '2 wins'; '1 loss', '2 losses': the noun for a count. */
export function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** A count with its noun: '1 win', '2 wins'. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${plural(n, one, many)}`;
}
