import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MoneyText } from './money-text';

describe('MoneyText', () => {
  it("marks each dollar amount of a prop account's headline as money, and only the amounts", () => {
    const { container } = render(<MoneyText>{'Daily loss: $2,234.56 left · target +$2,666.67, drawdown -$12.50'}</MoneyText>);
    expect([...container.querySelectorAll('[data-money]')].map((el) => el.textContent)).toEqual(['$2,234.56', '+$2,666.67', '-$12.50']);
    expect(container.textContent).toBe('Daily loss: $2,234.56 left · target +$2,666.67, drawdown -$12.50');
  });

  it('marks a USDT or USDC amount, with its currency, as money', () => {
    const { container } = render(<MoneyText>{'Daily loss: 100.00 USDT left · -1,250.50 USDC today, 3 of 5 days'}</MoneyText>);
    expect([...container.querySelectorAll('[data-money]')].map((el) => el.textContent)).toEqual(['100.00 USDT', '-1,250.50 USDC']);
    expect(container.textContent).toBe('Daily loss: 100.00 USDT left · -1,250.50 USDC today, 3 of 5 days');
  });

  it('leaves words without amounts as they are', () => {
    const { container } = render(<MoneyText>{'On track: 3 of 5 trading days'}</MoneyText>);
    expect(container.querySelectorAll('[data-money]')).toHaveLength(0);
    expect(container.textContent).toBe('On track: 3 of 5 trading days');
  });
});
