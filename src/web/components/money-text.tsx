import { Fragment } from 'react';

/**
 * An amount as the app writes one: in dollars ('$2,234.56', '-$12.50', '+$2,666.67'), or in an exchange account's
 * currency after it ('1,000.00 USDT', '-12.50 USDC').
 */
const AMOUNT = /[-+]?\$\d[\d,]*(?:\.\d+)?|[-+]?\d[\d,]*(?:\.\d+)? US(?:DT|DC)\b/g;

/**
 * Words with amounts in them (a prop account's 'Daily loss: $2,234.56 left'): each amount is marked as money
 * (data-money), so that trading mode blurs it and a shared picture without amounts blanks it, while the words around
 * it stay readable.
 */
export function MoneyText({ children }: { children: string }) {
  const parts: Array<{ text: string; money: boolean }> = [];
  let last = 0;
  for (const match of children.matchAll(AMOUNT)) {
    if (match.index > last) parts.push({ text: children.slice(last, match.index), money: false });
    parts.push({ text: match[0], money: true });
    last = match.index + match[0].length;
  }
  if (last < children.length) parts.push({ text: children.slice(last), money: false });
  return (
    <>
      {parts.map((part, i) =>
        part.money ? (
          <span key={i} data-money>
            {part.text}
          </span>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
