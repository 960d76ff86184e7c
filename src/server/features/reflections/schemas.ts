import { z } from 'zod';

// The requests live in the shared contract (src/contract/reflections.ts), imported by the web app and the API tests too.
export {
  analyzeInput,
  overridePatch,
  reflectionTradeIdParam as tradeIdParam,
  reflectionsQuery,
  type AnalyzeInput,
  type OverridePatch,
  type ReflectionsQuery,
} from '../../../contract/reflections';

/** What the model must return (valid JSON with summary, strengths and weaknesses). */
const prose = z.array(z.unknown()).transform((items) =>
  items
    .filter((i): i is string => typeof i === 'string' && i.trim() !== '')
    .map((i) => i.trim().slice(0, 600))
    .slice(0, 10),
);

export const modelAnalysis = z.object({
  summary: z.union([z.object({ patterns: prose.optional() }).passthrough(), z.string()]),
  strengths: prose,
  weaknesses: prose,
  suggestions: prose.optional(),
  actionPlan: prose.optional(),
});
