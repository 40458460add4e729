import { Link } from 'react-router';
import { StatusPill, type StatusTone } from '../../components/StatusPill';
import { datasetPagePath, documentPagePath, projectPagePath } from '../../layout/orgPaths';
import { formatUsd } from '../usage/usageFormat';
import type { AgentRun, CallDecision } from './runsApi';

const STATUS: Record<string, { label: string; tone: StatusTone }> = {
  running: { label: 'Running', tone: 'working' },
  paused: { label: 'Waiting for the person', tone: 'review' },
  finished: { label: 'Finished', tone: 'success' },
  stopped: { label: 'Stopped', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'failure' },
};

export function RunStatus({ status }: { status: string }) {
  const shown = STATUS[status] ?? { label: status, tone: 'neutral' as const };
  return <StatusPill tone={shown.tone}>{shown.label}</StatusPill>;
}

const DECISION: Record<CallDecision, { label: string; tone: StatusTone }> = {
  allowed: { label: 'Allowed', tone: 'neutral' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'review' },
  denied: { label: 'Denied', tone: 'failure' },
  stopped: { label: 'Stopped', tone: 'neutral' },
};

export function DecisionPill({ decision }: { decision: CallDecision }) {
  const shown = DECISION[decision] ?? { label: decision, tone: 'neutral' as const };
  return <StatusPill tone={shown.tone}>{shown.label}</StatusPill>;
}

/** Who ran it: a person's email, or what ran without one. */
export function runUser(run: AgentRun): string {
  if (run.user_email !== null) return run.user_email;
  return run.user_id === null ? 'No person (a job or a token)' : 'A removed account';
}

/** The pages of the kinds of subject that have one. */
const SUBJECT_PAGES: Record<string, (orgId: string, id: string) => string> = {
  document: documentPagePath,
  dataset: datasetPagePath,
  project: projectPagePath,
};

/** What the run was about, as a link to it while it exists. */
export function RunSubject({ orgId, run }: { orgId: string; run: AgentRun }) {
  const { subject } = run;
  const pagePath = SUBJECT_PAGES[subject.kind];
  if (!pagePath) {
    return (
      <span>
        {subject.kind} <span className="font-mono text-xs text-slate-500">{subject.id}</span>
      </span>
    );
  }
  return subject.name === null ? (
    <span className="text-slate-500">A deleted {subject.kind}</span>
  ) : (
    <Link
      to={pagePath(orgId, subject.id)}
      title={`${subject.kind}: ${subject.name}`}
      className="text-slate-900 underline decoration-slate-300 hover:decoration-slate-900"
    >
      {subject.name}
    </Link>
  );
}

export function runCost(run: AgentRun): string {
  const cost = run.usage.cost_usd;
  if (cost === null) return 'No price';
  return formatUsd(cost ?? 0);
}
