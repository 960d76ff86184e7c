import { z } from 'zod';
import type { PlaybookFigures, PlaybookReport as DomainPlaybookReport } from '../domain/playbooks/report';
import { agree, instant, type Same } from './common';
import { reportBasis } from './reports';

/**
 * Playbooks: named setups with a description, entry criteria and an ordered checklist of rules.
 * A trade takes one playbook and ticks its rules; Reflect's "followed the rules" is derived from the ticks.
 */

const MAX_RULES = 50;
const name = z.string().trim().min(1, 'name: must not be empty').max(100, 'name: must be at most 100 characters');
const longText = (field: string) => z.string().max(10_000, `${field}: must be at most 10,000 characters`).default('');

/** POST /api/playbooks and PUT /api/playbooks/:id. Rules in their order; a rule that keeps its id keeps its ticks. */
export const playbookInput = z.object({
  name,
  description: longText('description'),
  entry_criteria: longText('entry_criteria'),
  rules: z
    .array(
      z.object({
        id: z.uuid("rules: a rule id must be one of this playbook's rules").optional(),
        text: z.string().trim().min(1, 'rules: a rule must not be empty').max(500, 'rules: a rule must be at most 500 characters'),
      }),
    )
    .max(MAX_RULES, `rules: at most ${MAX_RULES} rules`)
    .default([]),
});
export type PlaybookInput = z.infer<typeof playbookInput>;
export type PlaybookBody = z.input<typeof playbookInput>;

export const playbookParam = z.object({ id: z.uuid('id must be a playbook id') });

export const playbookRule = z.strictObject({ id: z.uuid(), text: z.string() });
export const playbook = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  entry_criteria: z.string(),
  rules: z.array(playbookRule),
  /** Trades that took it. */
  trades: z.number().int().nonnegative(),
  updated_at: instant,
});
export type PlaybookDto = z.infer<typeof playbook>;

/** GET /api/playbooks: by name. */
export const playbookList = z.array(playbook);

/** PUT /api/trade-playbooks/:id: the trade's playbook (null: none) and the rules of it the trade followed. */
export const tradePlaybookInput = z.object({
  playbook_id: z.uuid('playbook_id must be a playbook id or null').nullable(),
  ticked_rule_ids: z
    .array(z.uuid("ticked_rule_ids: must be rules of the trade's playbook"))
    .max(MAX_RULES, `ticked_rule_ids: at most ${MAX_RULES} rules`)
    .default([]),
});
export type TradePlaybookBody = z.input<typeof tradePlaybookInput>;

/** GET and PUT /api/trade-playbooks/:id */
export const tradePlaybook = z.strictObject({
  trade_id: z.uuid(),
  playbook_id: z.uuid().nullable(),
  ticked_rule_ids: z.array(z.uuid()),
  /** Reflect's answer as it now stands: derived from the ticks when the trade has a playbook with rules. */
  followed_rules: z.boolean().nullable(),
});
export type TradePlaybookDto = z.infer<typeof tradePlaybook>;

const count = z.number().int().nonnegative();
const cents = z.number().int();
const figures = z.strictObject({
  trades: count,
  wins: count,
  losses: count,
  winRate: z.number().nullable(),
  netCents: cents,
  expectancyCents: cents.nullable(),
  expectancyR: z.number().nullable(),
  tradesWithRisk: count,
  tradesWithoutRisk: count,
});
agree<Same<z.infer<typeof figures>, PlaybookFigures>>(true);

export const playbookReportShape = figures.extend({
  rules: count,
  adherence: z.number().min(0).max(100).nullable(),
  followed: figures,
  broken: figures,
});
agree<Same<z.infer<typeof playbookReportShape>, DomainPlaybookReport>>(true);

/** GET /api/playbooks/:id/report (the reports' filter in its query). */
export const playbookReport = z.strictObject({ basis: reportBasis, playbook, report: playbookReportShape });
export type PlaybookReport = z.infer<typeof playbookReport>;

/** GET /api/reports/playbooks: every playbook's report over the filter's trades (the By Playbook table). */
export const playbooksReport = z.strictObject({
  basis: reportBasis,
  playbooks: z.array(z.strictObject({ id: z.uuid(), name: z.string(), report: playbookReportShape })),
});
export type PlaybooksReport = z.infer<typeof playbooksReport>;
