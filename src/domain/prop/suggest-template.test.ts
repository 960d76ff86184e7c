import { describe, expect, it } from 'vitest';
import { suggestPropTemplate } from './templates';

const suggest = (name: string, balance: number | null, platform = 'TopstepX') =>
  suggestPropTemplate({ platform, name, balanceCents: balance === null ? null : Math.round(balance * 100) })?.id ?? null;

describe('the template offered for a platform account', () => {
  it("reads the plan's size from a TopstepX account's name, whatever its balance", () => {
    expect(suggest('50KTC-V2-415514-27501559', 51_230.5)).toBe('topstep-combine-50k');
    expect(suggest('100KTC-V2-14334-1', 96_000)).toBe('topstep-combine-100k');
    expect(suggest('150KTC-V2-14334-23803636', 149_885.86)).toBe('topstep-combine-150k');
    // A name's size wins over a balance that says another.
    expect(suggest('50KTC-V2-DLL-575771-31859500', 100_000)).toBe('topstep-combine-50k');
    // A size the firm has no plan of: nothing is guessed.
    expect(suggest('300KTC-V2-1', 300_000)).toBeNull();
  });

  it('an express or funded name picks the funded plan', () => {
    expect(suggest('EXPRESS-V2-2001', 50_000)).toBe('topstep-express-funded-50k');
    expect(suggest('50K-XFA-12', 52_000)).toBe('topstep-express-funded-50k');
    // Topstep has no funded template of 150K.
    expect(suggest('EXPRESS-V2-3001', 150_000)).toBeNull();
  });

  it('else the balance, within a tenth of a plan size; else nothing', () => {
    expect(suggest('TEST_ACCOUNT_1', 50_000)).toBe('topstep-combine-50k');
    expect(suggest('TEST_ACCOUNT_1', 54_999.99)).toBe('topstep-combine-50k');
    expect(suggest('TEST_ACCOUNT_1', 138_000)).toBe('topstep-combine-150k');
    expect(suggest('TEST_ACCOUNT_1', 70_000)).toBeNull();
    expect(suggest('TEST_ACCOUNT_1', null)).toBeNull();
  });

  it('never for a practice account, nor for a platform whose firm has no template', () => {
    expect(suggest('PRAC-V2-14334-54169883', 50_000)).toBeNull();
    expect(suggest('50KTC-V2-1', 50_000, 'Acme Futures')).toBeNull();
    expect(suggest('Account 50K', 50_000, 'Take Profit Trader')).toBe('take-profit-trader-test-50k');
  });
});
