import type { CallDecision } from '@docagent/agent/events';

/** A call's state on screen; a call that did not run says why: rejected by the person, denied, stopped. */
export type ToolStatus = 'pending' | 'running' | 'done' | 'failed' | 'rejected' | 'denied' | 'stopped';

/** What the server said when the person rejected a call: how conversations stored before decisions were kept tell it. */
const REJECTED = 'User rejected this action.';

/** The state of a call that did not succeed, from the decision the server gave it. */
export function failedStatus(decision: CallDecision | undefined, error: string): ToolStatus {
  switch (decision) {
    case 'rejected':
    case 'denied':
    case 'stopped':
      return decision;
    case undefined:
      return error === REJECTED ? 'rejected' : 'failed';
    default:
      return 'failed';
  }
}
