import type { OrgAccess } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { WorkingState } from '../tools/tool.ts';
import type { DeclaredWrite } from './decision.ts';
import type { Mention, Subject } from './pack.ts';
import type { StoredMessages } from './turn-state.ts';

/** What the engine is asked: to start a turn, continue a paused one; and what a stop found. */

/** What a stop request found, and what became of the turn. */
export interface StopOutcome {
  /** stopping: it runs and stops at its next safe point; stopped: it was paused and is now stopped. */
  status: 'stopping' | 'stopped' | 'finished' | 'failed';
  detail: string;
}

/** The conversation a turn on a thread starts from, read once the turn holds the thread. */
export interface ThreadStart {
  /** The thread's messages (truncated when asked) followed by the person's new message. */
  messages: ModelMessage[];
  workingState: WorkingState;
  /** How many messages the thread stores, and how many of them the turn keeps. */
  stored: StoredMessages;
}

export interface StartTurnInput {
  access: OrgAccess;
  subject: Subject;
  threadId?: string | null;
  /** The conversation so far, ending with the person's new message. */
  messages: ModelMessage[];
  model?: string | null;
  maxSteps?: number;
  /** The loop strategy (react or roa); default react. */
  strategy?: string;
  autoApprove?: boolean;
  autoApprovedTools?: string[];
  /** Plan first: writes are refused until the person approves the plan (the turn's answer) in a next turn. */
  planMode?: boolean;
  /**
   * For a run with no person watching: the only writes it may make (every other write is denied).
   * Auto-approving everything is for a person's own turn and cannot be combined with it.
   */
  declaredWrites?: DeclaredWrite[];
  workingState?: WorkingState;
  mentions?: Mention[];
  /**
   * For a turn on a thread: reads the conversation and the working state once the turn holds the
   * thread, replacing `messages` and `workingState`. Read any earlier, it could miss the end of
   * the thread's previous turn.
   */
  readThread?: () => Promise<ThreadStart>;
}

export interface ContinueTurnInput {
  access: OrgAccess;
  /** When the route names a subject, the turn must be about it. */
  subject?: Subject;
  turnId: string;
  approvals: Array<{ callId: string; approved: boolean; arguments?: unknown }>;
  /** The answer to the turn's question, when it paused on `request_input`. */
  input?: string;
}
