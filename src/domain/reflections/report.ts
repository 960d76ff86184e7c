import type { ReflectionRStatistics } from './r-statistics';
import type { PeriodComparison } from './comparison';
import type { TradingInsight } from './insights';
import type { AnalysisResult } from './local-analysis';
import type { ReflectionPeriod } from './period';
import type { Reflection } from './reflection';
import type { ReflectionStatistics } from './statistics';
import type { PlaybookReport } from '../playbooks/report';

/**
 * The shapes the Reflect API answers with, shared by the server that builds them and the page that reads them, so
 * the two cannot drift.
 */

/** GET /api/reflections. `account` is 'all', 'unassigned' or an account id. */
export interface ReflectionsPageData {
  period: ReflectionPeriod;
  offset: number;
  label: string;
  from: string;
  to: string;
  account: string;
  accountName: string;
  timeZone: string;
  reflections: Reflection[];
  statistics: ReflectionStatistics;
  comparison: PeriodComparison | null;
  insights: TradingInsight[];
}

/** GET /api/reflections/summary. */
export interface PeriodSummaryData {
  label: string;
  from: string;
  to: string;
  headline: string;
  lines: string[];
}

export interface AnalysisNotice {
  /** 'Connection Error' when the provider failed, or 'AI not configured' on a server without a provider. */
  title: string;
  message: string;
  /** What went wrong with the provider's answer, when something did. */
  detail?: string;
}

/** One playbook's report in an analysis. */
export interface AnalysisPlaybookRow {
  id: string;
  name: string;
  report: PlaybookReport;
}

/** POST /api/analyze-reflections: the analysis, our figures around it, and where the prose came from. */
export interface AnalysisReport {
  period: ReflectionPeriod;
  offset: number;
  label: string;
  from: string;
  to: string;
  account: string;
  accountName: string;
  source: 'ai' | 'local';
  model: string | null;
  analysis: AnalysisResult;
  totals: ReflectionStatistics['totals'];
  adherence: ReflectionStatistics['adherence'];
  /** The same trades in R: the totals and the session, setup and weekday tables. */
  r: ReflectionRStatistics;
  /**
   * By Playbook beside the rule-following figures: each of the trader's playbooks over the
   * period's trades, from the playbooks' report (src/domain/playbooks), never from the model.
   */
  playbooks: AnalysisPlaybookRow[];
  comparison: PeriodComparison | null;
  notice: AnalysisNotice | null;
  /** Money or percentages in the AI's prose that Edgebook did not give it. */
  unverifiedFigures: string[];
  generatedAt: string;
}

/** The events of POST /api/analyze-reflections with Accept: text/event-stream, before `data: [DONE]`. */
export type AnalysisEvent =
  | { type: 'progress'; stage: string; percent: number }
  | { type: 'result'; report: AnalysisReport }
  | { type: 'error'; status: number; message: string };
