import { createEvaluation, DomainError, evaluationReport, getEvaluation, resolvePromptRevision } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import { idField } from './shared.ts';

/** How long the tool waits for the evaluation's jobs; past it the evaluation goes on, and the tool says where to read it. */
const WAIT_MS = 480_000;
const MAX_DIFFERENCES = 20;

export const evaluatePromptTool = defineTool({
  name: 'evaluate_prompt',
  description:
    "Measure a prompt revision against the documents whose results a person verified (the prompt's evaluation set): it runs the revision on each of them without changing any stored result, then reports overall and per-field accuracy and the values that differ. Use it to improve a prompt: evaluate, change the prompt (update_prompt), evaluate the new revision, compare. It costs a model call per verified document, so the person is asked first.",
  input: z.strictObject({ prompt_revid: idField('The prompt revision to evaluate (prompt_revid)') }),
  access: 'read_only',
  asksFirst: 'evaluate_prompt runs the prompt on every verified document: a model call each',
  timeLimitMs: WAIT_MS + 60_000,
  async run(context, input) {
    const batches = context.services.batches;
    if (!batches) {
      throw new DomainError('unavailable', 'Evaluations run on the server; ask in a chat on a document there.');
    }
    const { orgId } = context.access;
    const revision = await resolvePromptRevision(batches.db, orgId, input.prompt_revid);
    const started = await createEvaluation(batches, context.access, revision.promptId, { promptRevid: revision.promptRevid });
    const deadline = Date.now() + WAIT_MS;
    // Waiting reads only the progress; the answers are scored once, at the end.
    let progress = started;
    while (progress.status === 'running' && Date.now() < deadline && !context.abortSignal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      progress = await getEvaluation(batches.db, orgId, started.id);
    }
    const report = await evaluationReport(batches.db, orgId, started.id);
    const { score, evaluation } = report;
    return {
      evaluation_id: evaluation.id,
      prompt_revid: evaluation.promptRevid,
      status: evaluation.status,
      documents: { total: evaluation.counts.total, answered: score.documents, failed: evaluation.counts.failed },
      overall_accuracy: score.overall.accuracy,
      fields: score.fields.map((f) => ({ path: f.path, accuracy: f.accuracy, correct: f.correct, total: f.total })),
      differences: report.differences.slice(0, MAX_DIFFERENCES).map((d) => ({
        document: d.documentName,
        path: d.path,
        expected: d.expected,
        actual: d.actual,
      })),
      ...(report.differences.length > MAX_DIFFERENCES ? { more_differences: report.differences.length - MAX_DIFFERENCES } : {}),
      ...(evaluation.status === 'running'
        ? { note: `Still running: read it later with GET /v0/orgs/${orgId}/evaluations/${evaluation.id}.` }
        : {}),
    };
  },
});
