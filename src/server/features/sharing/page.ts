import type { SharedDay, SharedImage, SharedReport, SharedPlaybook, SharedPlaybookFigures, SharedProp, SharedTrade, SharedView } from './service';

/**
 * The shared pages, drawn here without the app: plain HTML with its styles inline, no script, light or dark as the
 * visitor's device prefers. Every text that came from a trader goes through `escapeHtml`, in element text and in
 * attributes alike.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1b1e;--muted:#5c5f66;--line:#e2e4e8;--win:#2b8a3e;--loss:#c92a2a;--card:#f8f9fa}
@media (prefers-color-scheme:dark){:root{--bg:#141517;--fg:#e9ecef;--muted:#a6a7ab;--line:#2c2e33;--win:#51cf66;--loss:#ff6b6b;--card:#1a1b1e}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:760px;margin:0 auto;padding:16px}h1{font-size:1.4rem;margin:.2rem 0 .1rem}h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
.sub{color:var(--muted);font-size:.9rem}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:8px;margin-top:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 10px}.card b{display:block;font-size:1.1rem}
.card span{color:var(--muted);font-size:.8rem}.Win{color:var(--win)}.Loss{color:var(--loss)}
table{width:100%;border-collapse:collapse;font-size:.9rem}th,td{text-align:left;padding:6px 4px;border-bottom:1px solid var(--line)}
th{color:var(--muted);font-weight:500}.note{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px;margin:8px 0}
svg{width:100%;height:auto;display:block}figure{margin:8px 0}figure img{max-width:100%;height:auto;display:block;border-radius:8px;border:1px solid var(--line)}
figcaption{color:var(--muted);font-size:.85rem;margin-top:4px}a{color:inherit}footer{color:var(--muted);font-size:.8rem;margin:2rem 0 1rem}`;

const r = (value: number | null) => (value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(2)}R`);
/** A win rate as the domain gives it: already a percentage, to one decimal. */
const winRateText = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)}%`);
const pct = (value: number | null) => (value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(2)}%`);

function card(label: string, value: string, tone = '') {
  return `<div class="card"><span>${escapeHtml(label)}</span><b${tone ? ` class="${escapeHtml(tone)}"` : ''}>${escapeHtml(value)}</b></div>`;
}

/**
 * The preview chat apps show: first the PNG, which they all draw, then the same card as SVG (its source) for readers
 * that take vector images. Both are 1200 by 630.
 */
function previewMeta(url: string): string {
  const png = `${url}/preview.png`;
  const svg = `${url}/preview`;
  const size = '<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">';
  return `<meta property="og:image" content="${escapeHtml(png)}"><meta property="og:image:type" content="image/png">${size}<meta property="og:image" content="${escapeHtml(svg)}"><meta property="og:image:type" content="image/svg+xml">${size}<meta name="twitter:card" content="summary_large_image"><meta name="twitter:image" content="${escapeHtml(png)}">`;
}

function documentOf(head: { title: string; description: string; url?: string }, body: string): string {
  const image = head.url ? previewMeta(head.url) : '';
  const url = head.url ? `<meta property="og:url" content="${escapeHtml(head.url)}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(head.title)}</title><meta property="og:type" content="website"><meta property="og:site_name" content="Edgebook">
<meta property="og:title" content="${escapeHtml(head.title)}"><meta property="og:description" content="${escapeHtml(head.description)}">${image}${url}
<style>${STYLE}</style></head><body><main>${body}<footer>Shared read-only from Edgebook.</footer></main></body></html>`;
}

/** Uploaded images through the link's own address; images at another site's address as links to it. */
function imagesBlock(images: readonly SharedImage[], url: string): string {
  if (images.length === 0) return '';
  const figures = images.map((image) => {
    const caption = image.caption ? `<figcaption>${escapeHtml(image.caption)}</figcaption>` : '';
    if (image.kind === 'uploaded') {
      const src = `${url}/image/${image.id}`;
      return `<figure><img src="${escapeHtml(src)}" alt="${escapeHtml(image.caption ?? 'Image')}" loading="lazy">${caption}</figure>`;
    }
    const safe = /^https?:\/\//i.test(image.url);
    return safe
      ? `<figure><a href="${escapeHtml(image.url)}" rel="noopener noreferrer nofollow">${escapeHtml(image.caption ?? image.url)}</a></figure>`
      : '';
  });
  return `<h2>Images</h2>${figures.join('')}`;
}

/** The fills over time, price on the vertical axis: buys and sells as dots. */
function fillsChart(trade: SharedTrade): string {
  const points = trade.fills.map((f, i) => ({ i, price: Number(f.price), side: f.side })).filter((p) => Number.isFinite(p.price));
  if (points.length < 2) return '';
  const prices = points.map((p) => p.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const span = high - low || 1;
  const w = 600;
  const h = 160;
  const x = (i: number) => 20 + (i / (points.length - 1)) * (w - 40);
  const y = (price: number) => 20 + (1 - (price - low) / span) * (h - 40);
  const line = points.map((p) => `${x(p.i).toFixed(1)},${y(p.price).toFixed(1)}`).join(' ');
  const dots = points
    .map(
      (p) =>
        `<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.price).toFixed(1)}" r="5" fill="${/buy|long/i.test(p.side) ? 'var(--win)' : 'var(--loss)'}"/>`,
    )
    .join('');
  return `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="Fills by price"><rect width="${w}" height="${h}" rx="8" fill="var(--card)" stroke="var(--line)"/>
<polyline points="${line}" fill="none" stroke="var(--muted)" stroke-width="1.5"/>${dots}
<text x="${w - 8}" y="16" text-anchor="end" font-size="11" fill="var(--muted)">${escapeHtml(String(high))}</text>
<text x="${w - 8}" y="${h - 6}" text-anchor="end" font-size="11" fill="var(--muted)">${escapeHtml(String(low))}</text></svg>`;
}

function tradeBody(trade: SharedTrade, url: string): string {
  const heading = [trade.symbol, trade.side].filter(Boolean).join(' ');
  const cards = [
    card('Result', trade.result, trade.result),
    card('R-multiple', r(trade.r), trade.result),
    ...(trade.pnl !== null ? [card('Net P&L', trade.pnl, trade.result)] : []),
    card('Price move', pct(trade.movePercent)),
    card('MAE', r(trade.maeR)),
    card('MFE', r(trade.mfeR)),
    card('Entry', trade.entryPrice ?? '—'),
    card('Exit', trade.exitPrice ?? '—'),
    card('Size', trade.quantity ?? '—'),
  ].join('');
  const sub = [trade.day, trade.contract, trade.account]
    .filter(Boolean)
    .map((t) => escapeHtml(t!))
    .join(' · ');
  const times = [trade.entryTime && `Entry ${trade.entryTime}`, trade.exitTime && `Exit ${trade.exitTime}`].filter(Boolean).join(' · ');
  const fills = trade.fills.length
    ? `<h2>Fills</h2>${fillsChart(trade)}<table><thead><tr><th>Time</th><th>Side</th><th>Qty</th><th>Price</th></tr></thead><tbody>${trade.fills
        .map(
          (f) =>
            `<tr><td>${escapeHtml(f.time)}</td><td>${escapeHtml(f.side)}</td><td>${escapeHtml(f.quantity)}</td><td>${escapeHtml(f.price)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const notes = trade.notes.length ? `<h2>Notes</h2>${trade.notes.map((n) => `<div class="note">${escapeHtml(n)}</div>`).join('')}` : '';
  return `<h1>${escapeHtml(heading)}</h1><div class="sub">${sub}</div>${times ? `<div class="sub">${escapeHtml(times)} (${escapeHtml(trade.zone)})</div>` : ''}<div class="grid">${cards}</div>${fills}${notes}${imagesBlock(trade.images, url)}`;
}

function dayBody(day: SharedDay, url: string): string {
  const cards = [
    card('Trades', String(day.trades)),
    card('Wins / losses', `${day.wins} / ${day.losses}`),
    card('Win rate', winRateText(day.winRate)),
    card('Total R', r(day.totalR)),
    card('Expectancy', r(day.expectancyR)),
    card('Profit factor', day.profitFactor === null ? '—' : day.profitFactor.toFixed(2)),
    ...(day.net !== null ? [card('Net P&L', day.net)] : []),
  ].join('');
  const amounts = day.rows.some((t) => t.pnl !== null);
  const accounts = day.rows.some((t) => t.account !== null);
  const head = `<tr><th>Time</th><th>Symbol</th><th>Side</th><th>Result</th><th>R</th>${amounts ? '<th>P&amp;L</th>' : ''}${accounts ? '<th>Account</th>' : ''}</tr>`;
  const rows = day.rows
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.time ?? '—')}</td><td>${escapeHtml(t.symbol)}</td><td>${escapeHtml(t.side ?? '—')}</td><td class="${escapeHtml(t.result)}">${escapeHtml(t.result)}</td><td>${escapeHtml(r(t.r))}</td>${
          amounts ? `<td>${escapeHtml(t.pnl ?? '')}</td>` : ''
        }${accounts ? `<td>${escapeHtml(t.account ?? '')}</td>` : ''}</tr>`,
    )
    .join('');
  const journal = day.journal === null ? '' : `<h2>Journal</h2><div class="note">${escapeHtml(day.journal)}</div>`;
  return `<h1>Trading day ${escapeHtml(day.day)}</h1><div class="sub">Times in ${escapeHtml(day.zone)}</div><div class="grid">${cards}</div><h2>Trades</h2><table><thead>${head}</thead><tbody>${rows}</tbody></table>${journal}${imagesBlock(day.images, url)}`;
}

const STATE_WORDS: Readonly<Record<string, string>> = { ok: 'On track', near: 'Near a limit', breached: 'Breached today', broken: 'Broken' };
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  active: 'Active',
  broken: 'Broken',
  passed: 'Passed',
  'payout-eligible': 'Payout eligible',
};
const RULE_STATE_WORDS: Readonly<Record<string, string>> = {
  ok: 'OK',
  near: 'Near',
  broken: 'Broken',
  breached: 'Breached',
  met: 'Met',
  pending: 'Pending',
  missed: 'Missed',
};
const propTitle = (prop: SharedProp) => prop.account ?? [prop.firm, prop.accountKind, 'account'].filter(Boolean).join(' ');

function propBody(prop: SharedProp): string {
  const tone =
    prop.state === 'broken' || prop.state === 'breached' ? 'Loss' : prop.outcome === 'passed' || prop.outcome === 'payout-eligible' ? 'Win' : '';
  const cards = [
    card('Status', OUTCOME_WORDS[prop.outcome] ?? prop.outcome, tone),
    card('Today', STATE_WORDS[prop.state] ?? prop.state, tone),
    card('Profit', pct(prop.profitPercent)),
    ...(prop.profit !== null ? [card('Profit', prop.profit)] : []),
    ...(prop.balance !== null ? [card('Balance', prop.balance)] : []),
    card('Trades', String(prop.trades)),
  ].join('');
  const details = prop.rules.some((rule) => rule.detail !== null);
  const rows = prop.rules
    .map(
      (rule) =>
        `<tr><td>${escapeHtml(rule.label)}</td><td>${escapeHtml(RULE_STATE_WORDS[rule.state] ?? rule.state)}</td><td>${escapeHtml(
          rule.progressPct === null ? '—' : `${rule.progressPct.toFixed(0)}%`,
        )}</td>${details ? `<td>${escapeHtml(rule.detail ?? '')}</td>` : ''}</tr>`,
    )
    .join('');
  const sub = [prop.accountKind, prop.firm, `as of ${prop.today}`]
    .filter(Boolean)
    .map((t) => escapeHtml(t!))
    .join(' · ');
  return `<h1>${escapeHtml(propTitle(prop))}</h1><div class="sub">${sub}</div>${prop.headline ? `<p>${escapeHtml(prop.headline)}</p>` : ''}<div class="grid">${cards}</div>
<h2>Rules</h2><table><thead><tr><th>Rule</th><th>State</th><th>Progress</th>${details ? '<th>Detail</th>' : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

function reportBody(report: SharedReport): string {
  const cards = [
    card('Trades', String(report.trades)),
    card('Trading days', String(report.tradingDays)),
    card('Win rate', winRateText(report.winRate)),
    card('Winning days', winRateText(report.winningDaysPercent)),
    card('Profit factor', report.profitFactor === null ? '—' : report.profitFactor.toFixed(2)),
    card('Total R', r(report.totalR)),
    card('Expectancy', r(report.expectancyR)),
    ...(report.net !== null ? [card('Net P&L', report.net)] : []),
    ...(report.averageTrade !== null ? [card('Average trade', report.averageTrade)] : []),
  ].join('');
  const withoutRisk = report.tradesWithoutRisk > 0 ? `<p class="sub">${report.tradesWithoutRisk} trades without a planned risk have no R.</p>` : '';
  return `<h1>Reports</h1><div class="sub">${escapeHtml(report.description)}</div><div class="grid">${cards}</div>${withoutRisk}`;
}

function playbookBody(book: SharedPlaybook): string {
  const amounts = book.all.net !== null;
  const row = (label: string, f: SharedPlaybookFigures) =>
    `<tr><td>${escapeHtml(label)}</td><td>${f.trades}</td><td>${escapeHtml(winRateText(f.winRate))}</td><td>${escapeHtml(r(f.expectancyR))}</td>${amounts ? `<td>${escapeHtml(f.net ?? '')}</td>` : ''}</tr>`;
  const cards = [
    card('Trades', String(book.all.trades)),
    card('Win rate', winRateText(book.all.winRate)),
    card('Expectancy', r(book.all.expectancyR)),
    card('Rules followed', book.adherence === null ? '—' : `${book.adherence.toFixed(1)}%`),
    ...(book.all.net !== null ? [card('Net P&L', book.all.net)] : []),
  ].join('');
  const text = (title: string, body: string) => (body.trim() ? `<h2>${escapeHtml(title)}</h2><div class="note">${escapeHtml(body)}</div>` : '');
  const rules = book.rules.length ? `<h2>Rules</h2><ol>${book.rules.map((rule) => `<li>${escapeHtml(rule)}</li>`).join('')}</ol>` : '';
  const table = `<h2>Following the rules</h2><table><thead><tr><th></th><th>Trades</th><th>Win rate</th><th>Expectancy</th>${amounts ? '<th>Net P&amp;L</th>' : ''}</tr></thead><tbody>${row('Every rule ticked', book.followed)}${row('A rule left out', book.broken)}</tbody></table>`;
  return `<h1>${escapeHtml(book.name)}</h1><div class="sub">Playbook, all trades</div><div class="grid">${cards}</div>${text('Description', book.description)}${text('Entry criteria', book.entryCriteria)}${rules}${book.rules.length ? table : ''}`;
}

/** A one-line summary for chat apps' previews: what the page shows first, with nothing the link hides. */
export function summaryOf(view: SharedView): { title: string; description: string } {
  if (view.kind === 'trade') {
    const title = `${[view.symbol, view.side].filter(Boolean).join(' ')} · ${view.day}`;
    return { title, description: [view.result, r(view.r), view.pnl].filter(Boolean).join(' · ') };
  }
  if (view.kind === 'report') {
    return {
      title: 'Reports',
      description: [view.description, `${view.trades} trades`, `${winRateText(view.winRate)} win rate`, r(view.totalR), view.net]
        .filter(Boolean)
        .join(' · '),
    };
  }
  if (view.kind === 'playbook') {
    return {
      title: `Playbook: ${view.name}`,
      description: [`${view.all.trades} trades`, `${winRateText(view.all.winRate)} win rate`, `${r(view.all.expectancyR)} a trade`, view.all.net]
        .filter(Boolean)
        .join(' · '),
    };
  }
  if (view.kind === 'prop') {
    return {
      title: propTitle(view),
      description: [OUTCOME_WORDS[view.outcome] ?? view.outcome, STATE_WORDS[view.state] ?? view.state, pct(view.profitPercent), view.profit]
        .filter(Boolean)
        .join(' · '),
    };
  }
  const winRate = view.winRate === null ? '' : `${winRateText(view.winRate)} win rate`;
  return { title: `Trading day ${view.day}`, description: [`${view.trades} trades`, winRate, r(view.totalR), view.net].filter(Boolean).join(' · ') };
}

/** The page of a live link; `url` is the link's own address (its preview and images are under it). */
export function sharedPage(view: SharedView, url: string): string {
  const body =
    view.kind === 'trade'
      ? tradeBody(view, url)
      : view.kind === 'day'
        ? dayBody(view, url)
        : view.kind === 'report'
          ? reportBody(view)
          : view.kind === 'playbook'
            ? playbookBody(view)
            : propBody(view);
  return documentOf({ ...summaryOf(view), url }, body);
}

/** Unknown, revoked and expired links all get this page, word for word. */
export const UNKNOWN_PAGE = documentOf(
  { title: 'Link not found', description: 'This link does not exist or is no longer shared.' },
  '<h1>Link not found</h1><p class="sub">This link does not exist or is no longer shared.</p>',
);

export const TOO_MANY_PAGE = documentOf(
  { title: 'Too many requests', description: 'Too many requests. Try again in a minute.' },
  '<h1>Too many requests</h1><p class="sub">Too many requests. Try again in a minute.</p>',
);

/** The preview image chat apps show: the page's title and summary on a card, 1200 by 630. */
export function previewSvg(view: SharedView): string {
  const { title, description } = summaryOf(view);
  const tone =
    view.kind === 'trade'
      ? view.result === 'Win'
        ? '#2b8a3e'
        : view.result === 'Loss'
          ? '#c92a2a'
          : '#5c5f66'
      : view.kind === 'prop' && view.state === 'broken'
        ? '#c92a2a'
        : '#1c7ed6';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<rect width="1200" height="630" fill="#141517"/><rect x="0" y="0" width="24" height="630" fill="${tone}"/>
<text x="80" y="250" font-family="system-ui, sans-serif" font-size="72" font-weight="700" fill="#e9ecef">${escapeHtml(title)}</text>
<text x="80" y="350" font-family="system-ui, sans-serif" font-size="44" fill="#a6a7ab">${escapeHtml(description)}</text>
<text x="80" y="560" font-family="system-ui, sans-serif" font-size="32" fill="#5c5f66">Edgebook</text></svg>`;
}
