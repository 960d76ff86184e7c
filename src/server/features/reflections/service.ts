import { findUnverifiedFigures } from '../../../domain/chat';
import {
  ANALYSIS_SYSTEM_PROMPT,
  assembleAnalysis,
  buildAnalysisPrompt,
  buildLocalAnalysis,
  buildPeriodSummary,
  buildTradingInsights,
  type AnalysisNotice,
  type AnalysisReport,
  type AnalysisResult,
  type PeriodSummaryData,
  type ReflectionPeriod,
  type ReflectionsPageData,
} from '../../../domain/reflections';
import type { ReflectionOverride } from '../../../contract/reflections';
import { AiError, type AiService } from '../../ai';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import type { AccountScope } from '../../core/trades/repo';
import { reflectionsRepo } from './repo';
import { modelAnalysis, type AnalyzeInput, type OverridePatch, type ReflectionsQuery } from './schemas';
import { playbookReportsInScope } from '../../core/engine/playbook-reports';
import { applyReflectAnswer } from '../../core/playbooks/assign';
import { loadReflectPeriod, type ReflectPeriodData } from '../../core/reflect/period';
import { writeTrades } from '../../core/trades/write';
import { withReportScope } from '../../core/engine/scope';
import { EMPTY_REPORT_FILTER, type ReportFilter } from '../../../domain/reports/filter';

type PeriodData = ReflectPeriodData;

/**
 * The analysis's By Playbook rows: each playbook with trades in the period (and account; with the page's trades
 * sent, only those), as the playbooks' report computes it over the reports' copy of the trades.
 */
async function playbookRowsOf(db: Database, userId: string, data: PeriodData, tradeIds: string[] | undefined, now: Date) {
  const filter: ReportFilter = {
    ...EMPTY_REPORT_FILTER,
    range: 'custom',
    from: data.from,
    to: data.to,
    account: data.account === 'all' ? [] : [data.account],
  };
  return withReportScope(db, userId, filter, now, async (scope) => {
    if (tradeIds) {
      const only = new Set(tradeIds);
      const { columns, rows } = scope.set;
      scope.set = { columns, rows: rows.filter((i) => only.has(columns.id[i]!)) };
    }
    const rows = await playbookReportsInScope(db, userId, scope);
    return rows.filter((row) => row.report.trades > 0);
  });
}

/** The period's reflections and every figure the page shows (the core's, shared with a mentor's read of it). */
const loadPeriod = (
  db: Database,
  userId: string,
  query: { period: ReflectionPeriod; offset: number; account: AccountScope; tradeIds?: string[] },
  now: Date,
  withRComparison = false,
) => loadReflectPeriod(db, userId, query, now, { withRComparison });

type AnalysisSource = AnalysisReport['source'];

export type AnalysisProgress = { stage: string; percent: number };

/** The messages when the provider's answer cannot be used. */
export const ANALYSIS_ERRORS = {
  empty: 'Empty response received from server',
  invalidFormat: 'Invalid response format from AI service',
  missingFields: 'Response is missing required fields',
  connection: { title: 'Connection Error', message: 'Unable to connect to the AI analysis server. Using local analysis instead.' },
  notConfigured: {
    title: 'AI not configured',
    message:
      'This is the local analysis: no AI provider is configured on this server. Set AI_BASE_URL and AI_API_KEY (OpenAI, DeepSeek, Ollama or llama.cpp; see docs/self-hosting.md) for the AI analyst.',
  },
  analysis: 'There was a problem analyzing your trades. Please try again later.',
} as const;

class InvalidAnalysis extends Error {}

/** The model's JSON, checked: it must have a summary, strengths and weaknesses. */
export function parseModelAnalysis(text: string) {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1')
    .trim();
  if (!trimmed) throw new InvalidAnalysis(ANALYSIS_ERRORS.empty);
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new InvalidAnalysis(ANALYSIS_ERRORS.invalidFormat);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidAnalysis(ANALYSIS_ERRORS.invalidFormat);
  const parsed = modelAnalysis.safeParse(json);
  if (!parsed.success) throw new InvalidAnalysis(ANALYSIS_ERRORS.missingFields);
  const { summary } = parsed.data;
  return {
    patterns: typeof summary === 'string' ? [summary.trim()].filter(Boolean) : (summary.patterns ?? []),
    strengths: parsed.data.strengths,
    weaknesses: parsed.data.weaknesses,
    suggestions: parsed.data.suggestions ?? [],
    actionPlan: parsed.data.actionPlan ?? [],
  };
}

export const reflectionsService = {
  async page(db: Database, userId: string, query: ReflectionsQuery, now: Date): Promise<ReflectionsPageData> {
    // The page has no R tables of its own (the analysis has them): its answer is the contract's, key for key.
    const { rStatistics: _rStatistics, ...data } = await loadPeriod(db, userId, query, now);
    return { ...data, insights: buildTradingInsights(data.statistics) };
  },

  async summary(db: Database, userId: string, query: ReflectionsQuery, now: Date): Promise<PeriodSummaryData> {
    const data = await loadPeriod(db, userId, query, now);
    if (data.reflections.length === 0) throw badRequest('No trades to analyze');
    return { label: data.label, from: data.from, to: data.to, ...buildPeriodSummary(data.label, data.reflections, data.statistics, data.comparison) };
  },

  async patch(db: Database, userId: string, tradeId: string, patch: OverridePatch): Promise<ReflectionOverride> {
    return writeTrades(db, userId, async (writer) => {
      const repo = reflectionsRepo(writer.tx, userId);
      if (!(await repo.tradeExists(tradeId))) throw notFound('Trade not found');
      // One rule model: on a trade with a playbook, the answer ticks every rule of its checklist or none.
      if (patch.followed_rules !== undefined) await applyReflectAnswer(writer, tradeId, patch.followed_rules);
      const row = await repo.upsertOverride(tradeId, {
        followedRules: patch.followed_rules,
        tags: patch.tags,
        description: patch.description === undefined ? undefined : patch.description?.trim() || null,
      });
      return {
        trade_id: tradeId,
        followed_rules: row.followedRules,
        tags: row.tags,
        description: row.description,
        updated_at: new Date(row.updatedAt).toISOString(),
      };
    });
  },

  /**
   * The AI analysis of a period. Our figures first; then, with a provider, the model's
   * prose around them; without one, or when it fails or answers something unusable, the local analysis with the
   * reason. `progress` reports stages for the dialog; `signal` is the browser's, and aborts the provider request.
   */
  async analyze(
    db: Database,
    ai: AiService,
    userId: string,
    input: AnalyzeInput,
    now: Date,
    options: { signal?: AbortSignal; progress?: (p: AnalysisProgress) => Promise<void> | void } = {},
  ): Promise<AnalysisReport> {
    const progress = options.progress ?? (() => undefined);
    await progress({ stage: 'Gathering your trades', percent: 5 });
    const tradeIds = input.trades
      ?.map((t) => t.tradeId ?? (typeof t.id === 'string' ? t.id.replace(/^r-/, '') : undefined))
      .filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
    const data = await loadPeriod(
      db,
      userId,
      { period: input.period ?? input.timeframe ?? 'week', offset: input.offset, account: input.account, tradeIds },
      now,
      true,
    );
    if (data.reflections.length === 0) throw badRequest('No trades to analyze');
    await progress({ stage: 'Computing your statistics', percent: 15 });

    const playbooks = await playbookRowsOf(db, userId, data, tradeIds, now);

    const report = (
      source: AnalysisSource,
      analysis: AnalysisResult,
      notice: AnalysisNotice | null,
      unverifiedFigures: string[] = [],
    ): AnalysisReport => ({
      period: data.period,
      offset: data.offset,
      label: data.label,
      from: data.from,
      to: data.to,
      account: data.account,
      accountName: data.accountName,
      source,
      model: source === 'ai' ? ai.models.chat : null,
      analysis,
      totals: data.statistics.totals,
      adherence: data.statistics.adherence,
      r: data.rStatistics,
      playbooks,
      comparison: data.comparison,
      notice,
      unverifiedFigures,
      generatedAt: now.toISOString(),
    });
    const local = (notice: AnalysisNotice) => report('local', buildLocalAnalysis(data.statistics), notice);

    if (!ai.configured) return local(ANALYSIS_ERRORS.notConfigured);

    await progress({ stage: 'Asking the AI analyst', percent: 25 });
    const prompt = buildAnalysisPrompt({
      label: data.label,
      from: data.from,
      to: data.to,
      accountName: data.accountName,
      statistics: data.statistics,
      comparison: data.comparison,
      reflections: data.reflections,
      r: data.rStatistics,
      playbooks,
    });
    let text = '';
    try {
      let lastPercent = 25;
      for await (const event of ai.stream(userId, {
        purpose: 'analysis',
        system: ANALYSIS_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: prompt }],
        maxTokens: 2000,
        temperature: 0.2,
        json: true,
        signal: options.signal,
      })) {
        if (event.type === 'restart') text = '';
        if (event.type === 'text') {
          text += event.delta;
          // The answer is a JSON object of a few kB: its growth is a fair measure of how far the model has got.
          const percent = Math.min(90, 25 + Math.floor(text.length / 40));
          if (percent >= lastPercent + 5) {
            lastPercent = percent;
            await progress({ stage: 'Writing your analysis', percent });
          }
        }
      }
    } catch (error) {
      if (error instanceof AiError && error.kind === 'aborted') throw error;
      const detail = error instanceof AiError ? error.message : undefined;
      return local({ ...ANALYSIS_ERRORS.connection, detail });
    }
    await progress({ stage: 'Checking the answer', percent: 95 });
    try {
      const prose = parseModelAnalysis(text);
      const written = [...prose.patterns, ...prose.strengths, ...prose.weaknesses, ...prose.suggestions, ...prose.actionPlan].join('\n');
      return report('ai', assembleAnalysis(data.statistics, prose), null, findUnverifiedFigures(written, [prompt]));
    } catch (error) {
      if (!(error instanceof InvalidAnalysis)) throw error;
      return local({ ...ANALYSIS_ERRORS.connection, detail: error.message });
    }
  },
};
