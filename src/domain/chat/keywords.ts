/**
 * Whether a chat message is about the trader's trading (when the text has trading
 * keywords, a context of recent trades is added). Whole words, case-insensitive, so "trades" and "P&L" count and
 * "tradesman"-like accidents stay rare; an instrument symbol (NQ, ES, ...) counts too.
 */
const KEYWORDS = [
  'trade', 'trades', 'traded', 'trading', 'trader', 'pnl', 'p&l', 'p/l', 'profit', 'profits', 'profitable', 'loss', 'losses',
  'losing', 'loser', 'losers', 'win', 'wins', 'winner', 'winners', 'winning', 'winrate', 'win rate', 'breakeven', 'break even',
  'performance', 'perform', 'performed', 'stats', 'statistics', 'session', 'sessions', 'setup', 'setups', 'strategy',
  'streak', 'streaks', 'drawdown', 'equity', 'account', 'accounts', 'commission', 'commissions', 'fees', 'long', 'short',
  'entry', 'entries', 'exit', 'exits', 'position', 'positions', 'contracts', 'futures', 'journal', 'rules', 'discipline',
  'risk', 'reward', 'r:r', 'expectancy', 'profit factor', 'best', 'worst', 'did i do', 'how am i doing', 'money', 'made', 'lost',
  'morning', 'mornings', 'afternoon', 'lunch', 'overnight', 'premarket', 'pre-market', 'week', 'month', 'today', 'yesterday',
];

const SYMBOLS = ['nq', 'es', 'mnq', 'mes', 'ym', 'mym', 'rty', 'm2k', 'cl', 'mcl', 'gc', 'mgc', 'btc', 'eth', 'spy', 'qqq'];

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\/&:]/g, '\\$&');
const PATTERN = new RegExp(`(?:^|[^a-z0-9])(?:${[...KEYWORDS, ...SYMBOLS].map(escape).join('|')})(?=$|[^a-z0-9])`, 'i');

export function hasTradingKeywords(text: string): boolean {
  return PATTERN.test(text);
}
