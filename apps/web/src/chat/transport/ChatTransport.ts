import type { ApproveRequest, ChatRequest } from '../../api/chat';
import type { FrameHandler } from '../../api/chatStream';

/**
 * How the panel talks to the agent about one document, whatever carries it (WebSocket or SSE).
 * Each call that reads a turn reports its frames to onFrame and settles when that stretch of the
 * turn is over: it resolves after the turn's `done` or `error` frame (a pause ends with `done`
 * too), and rejects when the connection fails first. A turn is not its connection: neither a
 * failure nor the signal (this client stops listening) stops it on the server; stop() does.
 */
export interface ChatTransport {
  /** Starts a turn with the request's message. */
  chat(request: ChatRequest, signal: AbortSignal, onFrame: FrameHandler): Promise<void>;
  /** Continues a paused turn with the approvals, and the answer to its question if it asked one. */
  resume(request: ApproveRequest, signal: AbortSignal, onFrame: FrameHandler): Promise<void>;
  /** Follows a turn again after a dropped connection: the frames after lastEventId, then the live ones. */
  follow(turnId: string, lastEventId: string | null, signal: AbortSignal, onFrame: FrameHandler): Promise<void>;
  /** Asks the server to stop the turn at its next phase boundary; its frames say when it did. */
  stop(turnId: string): Promise<void>;
  /** Lets go of the connection (the panel is left); turns go on. */
  close(): void;
}
