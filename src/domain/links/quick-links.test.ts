import { describe, expect, it } from 'vitest';
import { isWebUrl, nextQuickLinkPosition, normalizeWebUrl, parseLegacyQuickLinks, reorderPositions } from './quick-links';

describe('quick link addresses (only http and https)', () => {
  it('accepts web addresses and refuses every other scheme', () => {
    for (const url of ['https://www.tradingview.com/chart/', 'http://localhost:8080', 'https://x.test/a?b=1#c']) expect(isWebUrl(url)).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>1</script>',
      'ftp://x.test',
      'https://',
      'https:// x.test',
      '//x.test',
      'vbscript:x',
    ]) {
      expect(isWebUrl(url), url).toBe(false);
    }
  });

  it('gives a bare host https, and leaves other schemes for validation to refuse', () => {
    expect(normalizeWebUrl('  tradingview.com/chart ')).toBe('https://tradingview.com/chart');
    expect(normalizeWebUrl('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(isWebUrl(normalizeWebUrl('javascript:alert(1)'))).toBe(false);
  });
});

describe('quick link positions', () => {
  it('a new link goes last: the highest position plus 1 (1 for the first)', () => {
    expect(nextQuickLinkPosition([])).toBe(1);
    expect(nextQuickLinkPosition([1, 4, 2])).toBe(5);
  });

  it('reordering sets position to index + 1', () => {
    expect(reorderPositions(['c', 'a', 'b'])).toEqual([
      { id: 'c', position: 1 },
      { id: 'a', position: 2 },
      { id: 'b', position: 3 },
    ]);
  });
});

describe('legacy localStorage trader-quick-links', () => {
  it('keeps usable entries and drops the rest', () => {
    const raw = JSON.stringify([
      { title: 'TV', url: 'https://tradingview.com', icon: 'chart' },
      { title: 'Bare host', url: 'finviz.com' },
      { title: 'Evil', url: 'javascript:alert(document.cookie)' },
      { title: '', url: 'https://no-title.test' },
      'junk',
      null,
    ]);
    expect(parseLegacyQuickLinks(raw)).toEqual([
      { title: 'TV', url: 'https://tradingview.com', icon: 'chart' },
      { title: 'Bare host', url: 'https://finviz.com', icon: null },
    ]);
  });

  it('reads nothing from a missing, broken or non-list value', () => {
    expect(parseLegacyQuickLinks(null)).toEqual([]);
    expect(parseLegacyQuickLinks('{not json')).toEqual([]);
    expect(parseLegacyQuickLinks('{"title":"x"}')).toEqual([]);
  });
});
