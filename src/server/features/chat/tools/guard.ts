import { jsonSchema, zodSchema, type Tool, type ToolSet } from 'ai';
import type { z } from 'zod';
import { describeError } from '../../../http/error-log';
import { describeProblem, findInputProblem } from '../../../http/input-guard';
import type { Logger } from '../../../logger';

/**
 * What the model reads when a tool fails for a reason of ours (a database that refused the query, a bug): in the
 * trader's terms, for the model to pass on. Before this, the AI SDK handed the model the error's own message, which
 * for a failed query is the SQL with its parameters, the trader's id among them.
 */
export const TOOL_FAILED = "Edgebook could not read the trader's trades for this just now. Say so, and suggest trying again in a moment.";

/** The first problem of the model's arguments as one short line naming the argument: `from: must be a date as yyyy-MM-dd`. */
function describeArguments(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const argument = issue.path.map(String).join('.');
  return `${argument || 'arguments'}: ${issue.message}`;
}

/**
 * One tool made safe to hand to the model. Its arguments are checked here rather than by the SDK (whose refusal is
 * the whole validation report), so a bad one comes back as a result of one short line naming the argument; anything
 * the tool throws is logged here, without the trader's values (error-log.ts), and the model gets TOOL_FAILED.
 */
export function guardTool(name: string, original: Tool, logger: Logger): Tool {
  const schema = original.inputSchema as z.ZodType;
  const execute = original.execute!;
  return {
    ...original,
    // The model still sees the tool's JSON schema; every value passes the SDK's check and meets ours below.
    inputSchema: jsonSchema(() => zodSchema(schema).jsonSchema, { validate: (value) => ({ success: true, value }) }),
    execute: async (input: unknown, options) => {
      // Text no column holds (a NUL) fails in the database like a request's would: refused here as it is there.
      const unstorable = findInputProblem(input);
      if (unstorable) return { error: describeProblem(unstorable, 'arguments') };
      const parsed = schema.safeParse(input ?? {});
      if (!parsed.success) return { error: describeArguments(parsed.error) };
      try {
        return await execute(parsed.data, options);
      } catch (error) {
        if (options.abortSignal?.aborted) throw error;
        logger.error({ tool: name, error: describeError(error) }, 'chat tool failed');
        return { error: TOOL_FAILED };
      }
    },
  } as Tool;
}

export function guardTools(tools: ToolSet, logger: Logger): ToolSet {
  return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, guardTool(name, tool, logger)]));
}
