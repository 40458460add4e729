import {
  type AgentEvent,
  approveChat,
  type ChatDeps,
  type FrameSink,
  followChat,
  startChat,
  stopChat,
  type TurnResult,
} from '@docagent/agent';
import { type OrgAccess, recordSpanFailure } from '@docagent/core';
import { trace } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { ApproveMessage, ChatMessage, ClientMessage } from './client-messages.ts';
import { connectionSpan, inMessageSpan } from './message-span.ts';
import { controlResultMessage, describeFailure, errorMessage, frameMessage, pongMessage } from './server-messages.ts';
import type { SocketSender } from './socket-sender.ts';

/** Follows one socket may have open at once: each polls the database until its turn ends. */
const MAX_FOLLOWS = 8;
/** Turns (or continuations) one socket may have running in this process at once. */
const MAX_RUNNING = 8;

const PAUSES = new Set<AgentEvent['type']>(['pending_tool_calls', 'input_request', 'agent_request_input']);

/**
 * One client's conversation with the agent over a socket: it starts, continues, stops and
 * follows turns through the chat service, and sends their frames back while it is open. A turn
 * is not its socket: turns get no abort signal from here, so a closed socket only stops the
 * frames (a stop is the explicit `agent_control` message, from this socket or any other).
 */
export class AgentSocket {
  /** The latest turn this socket started or continued: the default of a stop. */
  private latestTurn: string | undefined;
  /** The latest turn that paused on this socket and was not continued since: the default of an answer. */
  private pausedTurn: string | undefined;
  private readonly follows = new Set<AbortController>();
  private running = 0;
  /** Made while the upgrade request is handled, so its span is the active one. */
  private readonly connection = connectionSpan();

  private readonly deps: ChatDeps;
  private readonly access: OrgAccess;
  private readonly out: SocketSender;
  private readonly log: FastifyBaseLogger;

  constructor(deps: ChatDeps, access: OrgAccess, out: SocketSender, log: FastifyBaseLogger) {
    this.deps = deps;
    this.access = access;
    this.out = out;
    this.log = log;
  }

  /** Handles one checked message. Turns run on without being awaited, so a stop gets through while they do. */
  handle(message: ClientMessage): void {
    switch (message.type) {
      case 'ping':
        this.out.send(pongMessage());
        break;
      case 'chat':
        void inMessageSpan('chat', this.connection, () => this.chat(message));
        break;
      case 'approve':
        void inMessageSpan('approve', this.connection, () => this.approve(message));
        break;
      case 'agent_user_input': {
        const turnId = message.turn_id ?? this.pausedTurn;
        if (turnId)
          void inMessageSpan('agent_user_input', this.connection, () =>
            this.approve({ type: 'approve', turn_id: turnId, approvals: [], input: message.content }),
          );
        else this.out.send(errorMessage('No turn waits for an answer on this socket; send turn_id.'));
        break;
      }
      case 'agent_control':
        void inMessageSpan('agent_control', this.connection, () => this.stop(message.turn_id ?? this.latestTurn));
        break;
      case 'follow':
        void this.follow(message.turn_id, message.after_event_id);
        break;
    }
  }

  /** The socket closed: its follows end; its turns go on. */
  closed(): void {
    for (const follow of this.follows) follow.abort();
    this.follows.clear();
  }

  private async chat(message: ChatMessage): Promise<void> {
    const request = {
      messages: [{ role: 'user' as const, content: message.message }],
      model: message.model,
      autoApprove: message.auto_approve,
      autoApprovedTools: message.auto_approved_tools,
      planMode: message.plan_mode,
      threadId: message.thread_id,
      truncateThreadToMessageCount: message.truncate_thread_to_message_count,
      maxSteps: message.agent_max_steps,
      strategy: message.strategy,
      mentions: message.mentions,
    };
    await this.runTurn(undefined, (sink) => startChat(this.deps, this.access, message.subject, request, sink));
  }

  private async approve(message: ApproveMessage): Promise<void> {
    const turnId = message.turn_id;
    const request = {
      turnId,
      approvals: message.approvals.map((a) => ({ callId: a.call_id, approved: a.approved, arguments: a.arguments })),
      input: message.input,
    };
    await this.runTurn(turnId, (sink) => approveChat(this.deps, this.access, undefined, request, sink));
  }

  /**
   * Runs a turn (or a continuation of one) with its frames going to the socket. A failure before
   * its first frame is an error message; after it, the turn's own `error` frame has told it.
   */
  private async runTurn(knownTurnId: string | undefined, run: (sink: FrameSink) => Promise<TurnResult>): Promise<void> {
    if (this.running >= MAX_RUNNING) {
      return this.out.send(errorMessage(`This socket already runs ${MAX_RUNNING} turns; wait for one to end.`, knownTurnId));
    }
    let turnId = knownTurnId;
    let framed = false;
    const sink: FrameSink = (seq, event) => {
      if (event.type === 'turn_started') {
        turnId = event.turn_id;
        this.latestTurn = turnId;
        // Continued: it waits no more (until its next pause frame says so).
        if (this.pausedTurn === turnId) this.pausedTurn = undefined;
      }
      framed = true;
      if (!turnId) return;
      if (PAUSES.has(event.type)) this.pausedTurn = turnId;
      this.out.send(frameMessage(turnId, seq, event));
    };
    this.running += 1;
    try {
      await run(sink);
    } catch (error) {
      if (framed) return this.log.warn({ err: error, turnId }, 'agent turn failed');
      this.fail(error, turnId);
    } finally {
      this.running -= 1;
    }
  }

  private async stop(turnId: string | undefined): Promise<void> {
    if (!turnId) return this.out.send(errorMessage('No turn to stop on this socket; send turn_id.'));
    try {
      this.out.send(controlResultMessage(turnId, await stopChat(this.deps, this.access, turnId)));
    } catch (error) {
      this.fail(error, turnId);
    }
  }

  /** Sends the frames of a turn after `afterSeq`, then its live ones until it ends or the socket closes. */
  private async follow(turnId: string, afterSeq: number): Promise<void> {
    if (this.follows.size >= MAX_FOLLOWS) {
      return this.out.send(errorMessage(`This socket already follows ${MAX_FOLLOWS} turns; wait for one to end.`, turnId));
    }
    const controller = new AbortController();
    this.follows.add(controller);
    try {
      for await (const frame of followChat(this.deps, this.access, undefined, turnId, afterSeq, controller.signal)) {
        if (!this.out.open) break;
        this.out.send(frameMessage(turnId, frame.seq, frame.event));
      }
    } catch (error) {
      this.fail(error, turnId);
    } finally {
      this.follows.delete(controller);
      controller.abort();
    }
  }

  private fail(error: unknown, turnId: string | undefined): void {
    const { message, internal } = describeFailure(error);
    if (internal) {
      this.log.error({ err: error, turnId }, 'agent socket request failed');
      // Handled here rather than thrown, so the message's span learns of it here.
      const span = trace.getActiveSpan();
      if (span) recordSpanFailure(span, error);
    }
    this.out.send(errorMessage(message, turnId));
  }
}
