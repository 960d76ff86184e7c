import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { waitForAnimations } from './scenario';

/**
 * Runs axe-core on the page (@axe-core/playwright needs a page of a context made by browser.newContext(), not one
 * from browser.newPage()) and returns its serious and critical violations, one readable line per failing node, so a
 * failed assertion says what to fix.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await waitForAnimations(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`));
}
