import { describe, expect, it } from 'vitest';
import { propTemplateFile } from '../../contract/prop';
import { findPropTemplate, PROP_TEMPLATE_FILE, PROP_TEMPLATES } from './templates';

const clone = () => JSON.parse(JSON.stringify(PROP_TEMPLATE_FILE)) as typeof PROP_TEMPLATE_FILE;
const problems = (file: unknown) => {
  const parsed = propTemplateFile.safeParse(file);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the templates file', () => {
  it('is what the server checks when it starts: every rule set valid, every rule it sets sourced', () => {
    expect(problems(PROP_TEMPLATE_FILE)).toEqual([]);
  });

  it('refuses a rule without a source, a source nobody wrote, an unknown kind of publisher and a bad rule', () => {
    const unsourced = clone();
    delete unsourced.templates[0]!.sources.maxLoss;
    expect(problems(unsourced)).toEqual(['templates.0.sources.maxLoss: a rule the template sets must name its sources']);

    const unknown = clone();
    unknown.templates[0]!.sources.maxLoss = ['no-such-page'];
    expect(problems(unknown)).toEqual(['templates.0.sources.maxLoss: no source no-such-page']);

    const publisher = clone() as unknown as { sources: Record<string, { publisher: string }> };
    publisher.sources['topstep-live-dll']!.publisher = 'blog';
    expect(problems(publisher)[0]).toMatch(/^sources\.topstep-live-dll\.publisher: /);

    const badRule = clone();
    badRule.templates[0]!.rules.maxPosition = { contracts: 0 };
    expect(problems(badRule)[0]).toMatch(/^templates\.0\.rules\.maxPosition\.contracts: /);
  });

  it("says which figures were read on the firm's own page and which only in reviews", () => {
    const mffu = findPropTemplate('myfundedfutures-evaluation-50k')!;
    const consistency = mffu.figures.find((f) => f.rule === 'consistency')!;
    expect(consistency.fromFirm).toBe(true);
    expect(consistency.sources[0]!.url).toMatch(/^https:\/\/help\.myfundedfutures\.com\//);
    expect(mffu.figures.find((f) => f.rule === 'maxLoss')!.fromFirm).toBe(false);
    expect(mffu.confirmedByFirm).toBe(false);
    // Every figure's sources carry the day they were read; the template's date is the earliest of them.
    for (const template of PROP_TEMPLATES) {
      expect(template.figures.length, template.id).toBeGreaterThan(0);
      for (const figure of template.figures) {
        expect(figure.sources.length, `${template.id} ${figure.rule}`).toBeGreaterThan(0);
        for (const source of figure.sources) expect(source.readOn >= template.checkedOn).toBe(true);
      }
    }
  });

  it("holds the firms' terms named: Apex's end-of-day product, Tradeify Select 50K, Topstep's daily loss limit where it applies, less-than and of-the-target consistency", () => {
    const apexEod = findPropTemplate('apex-eod-50k')!;
    expect(apexEod.rules).toMatchObject({
      maxLoss: { trailing: 'end-of-day', amountCents: 200_000, lockAboveStartCents: 10_000 },
      dailyLoss: { limitCents: 100_000, onBreach: 'stop-day' },
    });
    expect(findPropTemplate('tradeify-select-50k')!.rules).toMatchObject({
      consistency: { maxBestDayPct: 40, of: 'profit' },
      minTradingDays: 3,
      dailyLoss: null,
    });
    // Topstep applies a daily loss limit in its Live account only: the Combine has none.
    expect(findPropTemplate('topstep-live-funded-50k')!.rules.dailyLoss).toMatchObject({ limitCents: 200_000 });
    expect(findPropTemplate('topstep-live-funded-50k')!.figures.find((f) => f.rule === 'dailyLoss')!.fromFirm).toBe(true);
    expect(findPropTemplate('topstep-combine-50k')!.rules.dailyLoss).toBeNull();
    expect(findPropTemplate('take-profit-trader-test-50k')!.rules.consistency).toMatchObject({ strict: true });
    expect(findPropTemplate('myfundedfutures-evaluation-50k')!.rules.consistency).toMatchObject({ of: 'target', onBreach: 'wait' });
  });
});
