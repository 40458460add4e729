import { type DataQuery, type DataRunRecord, invalidInput, newId, type OrgAccess, runDataQuery } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { ChatDeps } from '../../engine/chat-service.ts';
import type { Subject } from '../../engine/pack.ts';
import { forHistory } from '../../engine/tool-batch.ts';
import { type DatasetChatBody, runFields } from './chat-body.ts';
import type { DatasetChatSink } from './chat-events.ts';
import { answerOf, dataServicesOf } from './shared.ts';

/**
 * Seed 004's fast path: a message starting with `SQL:` or `PYTHON:` is code the person wrote
 * already, so it runs as written, with no model call that could rewrite it.
 */

const PREFIX = /^\s*(sql|python):/i;

/** The common indentation of the non-blank lines removed, so pasted Python keeps its own. */
function dedent(code: string): string {
  const lines = code.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = Math.min(...indents);
  return common > 0 && Number.isFinite(common) ? lines.map((l) => l.slice(common)).join('\n') : code;
}

/** The code of the message, without a Markdown fence around it. */
function codeOf(rest: string): string {
  const fenced = /^\s*```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```\s*$/.exec(rest);
  if (fenced) return dedent(fenced[1] ?? '').trimEnd();
  // On the prefix's own line, the spaces after the colon are not indentation.
  const code = /^[ \t]*\S/.test(rest) ? rest.replace(/^[ \t]+/, '') : dedent(rest.replace(/^(?:[ \t]*\r?\n)+/, ''));
  return code.trimEnd();
}

/** What the fast path runs: SQL or Python as the person wrote it. */
type FastQuery = Extract<DataQuery, { mode: 'sql' | 'python' }>;

/** The query a fast-path message asks for; null for a message to the agent. */
export function fastQueryOf(message: string): FastQuery | null {
  const match = PREFIX.exec(message);
  if (!match) return null;
  const mode = match[1]?.toLowerCase() === 'sql' ? 'sql' : 'python';
  const code = codeOf(message.slice(match[0].length));
  if (code.trim() === '') {
    throw invalidInput(
      `"${mode.toUpperCase()}:" must be followed by the ${mode === 'sql' ? 'query' : 'code'} to run, e.g. ${mode === 'sql' ? '"SQL: SELECT count(*) FROM orders"' : '"PYTHON: result_df = orders.head()"'}.`,
    );
  }
  return mode === 'sql' ? { mode, sql: code.trim() } : { mode, code };
}

/** The tool the agent would have called for the query, so the thread reads as if it had. */
const toolOf = (query: FastQuery) =>
  query.mode === 'sql'
    ? { name: 'execute_sql', input: { sql: query.sql } }
    : { name: 'execute_python', input: { code: query.code } };

const SUMMARY_ROWS = 20;

/** A cell for a Markdown table: on one line, its pipes escaped. */
const cell = (value: unknown) =>
  (typeof value === 'string' ? value : JSON.stringify(value ?? null)).replace(/\r?\n/g, ' ').replaceAll('|', '\\|');

/** What the fast path says of its run, in place of the model's answer: the values, as the agent would give them. */
function summaryOf(run: DataRunRecord): string {
  if (run.error) {
    const what = run.status === 'rejected' ? 'was refused' : 'failed';
    return `The ${run.queryMode === 'python' ? 'code' : 'query'} ${what} (${run.error.code}): ${run.error.message}`;
  }
  const result = run.result;
  if (!result) return 'The run gave no result.';
  const [only] = result.rows;
  if (result.row_count === 1 && only?.length === 1) return `The result is ${cell(only[0])} (${result.columns[0]?.name}).`;
  const count = `It returned ${result.row_count} row${result.row_count === 1 ? '' : 's'}`;
  if (result.rows.length === 0) return `${count}.`;
  const shown = result.rows.slice(0, SUMMARY_ROWS);
  const table = [
    `| ${result.columns.map((c) => cell(c.name)).join(' | ')} |`,
    `|${result.columns.map(() => '---').join('|')}|`,
    ...shown.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  const capped =
    shown.length < result.row_count
      ? `The first ${shown.length} are shown${result.truncated ? ': the result was capped' : ''}.`
      : '';
  return [`${count}:`, '', ...table, ...(capped ? ['', capped] : [])].join('\n');
}

/**
 * Runs the person's query through the DataRuns service (recorded with the message as its
 * question), adds it to the thread as a call of the matching tool, so the conversation shows it
 * and later turns see it, and reports it with the agent's events minus `token`. The call goes to
 * the thread before it runs, so a thread busy with a turn refuses it before anything ran.
 */
export async function runFastPath(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject,
  threadId: string,
  message: string,
  query: FastQuery,
  emit: DatasetChatSink,
): Promise<DatasetChatBody> {
  const callId = `direct_${newId()}`;
  const tool = toolOf(query);
  await deps.threads.append(access, subject, threadId, [
    { role: 'user', content: message },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: callId, toolName: tool.name, input: tool.input }] },
  ]);
  await emit({ event: 'tool_call', data: { call_id: callId, name: tool.name, input: tool.input } });
  const run = await runDataQuery(dataServicesOf(deps.engine.services), access, {
    datasetId: subject.id,
    query,
    question: message,
  });
  const answer = answerOf(run);
  const error = 'error' in answer ? `${answer.error}: ${answer.message}` : undefined;
  const summary = summaryOf(run);
  const outcome: ModelMessage = {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: callId,
        toolName: tool.name,
        output: error === undefined ? { type: 'json', value: forHistory(answer) as never } : { type: 'error-text', value: error },
        providerOptions: { docagent: { decision: 'allowed' } },
      },
    ],
  };
  await deps.threads.append(access, subject, threadId, [outcome, { role: 'assistant', content: summary }]);
  await emit({
    event: 'tool_result',
    data:
      error === undefined
        ? { call_id: callId, name: tool.name, success: true, output: answer }
        : { call_id: callId, name: tool.name, success: false, error },
  });
  return { assistant_message: summary, thread_id: threadId, turn_id: null, ...runFields(run) };
}
