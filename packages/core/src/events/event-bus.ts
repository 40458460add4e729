import type { NoteSource } from '../projects/note-rules.ts';

/** What happened in an organization, for whoever listens in this process (webhooks, the agent, the UI's streams). */
export type DomainEvent =
  | {
      type: 'document.uploaded' | 'document.text_ready' | 'document.error';
      orgId: string;
      documentId: string;
      at: string;
      error?: string;
    }
  | {
      type: 'note.created' | 'note.updated' | 'note.deleted';
      orgId: string;
      projectId: string;
      noteId: string;
      version?: number;
      actor: string | null;
      source?: NoteSource;
      at: string;
    }
  | {
      type: 'agent.action_completed';
      orgId: string;
      subject: { kind: string; id: string };
      turnId: string;
      threadId: string | null;
      userId: string | null;
      toolCalls: Array<{ name: string; decision: string; success: boolean }>;
      success: boolean;
      at: string;
    }
  | {
      /** A prompt's run on a document ended; recorded as the prompt's outcome (prompt-outcomes.ts). */
      type: 'llm.completed' | 'llm.error';
      orgId: string;
      documentId: string;
      promptId: string;
      promptRevid: string;
      promptVersion: number;
      error?: string;
      at: string;
    }
  | {
      type: 'auto_create.proposed';
      orgId: string;
      documentId: string;
      promptRevid: string;
      schemaRevid: string | null;
      at: string;
    }
  | {
      /** A turn paused for the person (approval of calls, or an answer) or ended. */
      type: 'agent.approval_needed' | 'agent.turn_finished';
      orgId: string;
      subject: { kind: string; id: string };
      turnId: string;
      threadId: string | null;
      userId: string | null;
      status: 'paused' | 'finished' | 'stopped' | 'failed';
      /** The calls waiting (approval_needed). */
      calls?: Array<{ id: string; name: string }>;
      error?: string;
      at: string;
    };

export type DomainEventType = DomainEvent['type'];
export type DomainEventHandler = (event: DomainEvent) => void | Promise<void>;

/**
 * An in-process publish/subscribe bus. Handlers run after the publisher's current tick, so a
 * publisher never waits for them; a handler that throws (or rejects) is reported to `onError`
 * and never reaches the publisher or the other handlers.
 */
export class EventBus {
  readonly #handlers = new Map<DomainEventType | '*', Set<DomainEventHandler>>();
  readonly #onError: (error: unknown, event: DomainEvent) => void;

  constructor(options: { onError?: (error: unknown, event: DomainEvent) => void } = {}) {
    this.#onError = options.onError ?? (() => {});
  }

  publish(event: DomainEvent): void {
    const handlers = [...(this.#handlers.get(event.type) ?? []), ...(this.#handlers.get('*') ?? [])];
    for (const handler of handlers) {
      queueMicrotask(() => {
        try {
          const result = handler(event);
          if (result && typeof (result as Promise<void>).then === 'function') {
            (result as Promise<void>).catch((error: unknown) => this.#report(error, event));
          }
        } catch (error) {
          this.#report(error, event);
        }
      });
    }
  }

  /** Calls `handler` with each event of `type` (every event for '*'); the function returned unsubscribes. */
  subscribe(type: DomainEventType | '*', handler: DomainEventHandler): () => void {
    let set = this.#handlers.get(type);
    if (!set) {
      set = new Set();
      this.#handlers.set(type, set);
    }
    set.add(handler);
    return () => {
      this.#handlers.get(type)?.delete(handler);
    };
  }

  #report(error: unknown, event: DomainEvent): void {
    try {
      this.#onError(error, event);
    } catch {
      // The error hook itself failing must not break anything either.
    }
  }
}
