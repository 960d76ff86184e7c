/**
 * The market clock. Day, week and session of a trade come from the exchange-local time of its entry. The futures we
 * import trade on CME Globex, whose clock is Chicago, but US traders, the session names (AM, Lunch, PM) and the cash
 * session they describe (9:30-16:00) all speak New York time, so New York is the market clock. Callers may pass
 * another zone (e.g. for a trader of European index futures).
 */
export const MARKET_TIME_ZONE = 'America/New_York';
