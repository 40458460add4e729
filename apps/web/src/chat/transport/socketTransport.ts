import type { ChatSubject } from '../../api/chat';
import type { ChatFrame, FrameHandler } from '../../api/chatStream';
import { orgApiPath } from '../../api/queries';
import type { ChatTransport } from './ChatTransport';
import { chatMessage, followMessage, readSocketMessage, resumeMessage, stopMessage } from './socketMessages';

/** How long the socket has to open and answer a ping; a server that closes it (4401) is quicker. */
const AUTH_TIMEOUT_MS = 5_000;

export interface SocketTransport extends ChatTransport {
  /** Opens the socket if it is not open, and resolves once the server answered as the signed-in person. */
  connect(): Promise<void>;
}

/** The turn the panel listens to: by its id, or (null) the next one a chat message starts. */
interface Listener {
  turnId: string | null;
  /** A frame came: a refusal after that is of another message (a stop), not of the one this listens for. */
  started: boolean;
  onFrame: FrameHandler;
  resolve(): void;
  reject(error: unknown): void;
}

function socketUrl(orgId: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${orgApiPath(orgId)}/agent/ws`;
}

/**
 * Opens a socket and checks it is usable: the server closes one that is not signed in (4401),
 * so a socket is only taken once it answered a ping.
 */
function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const fail = (reason: string) => {
      clearTimeout(timer);
      socket.onclose = null;
      socket.close();
      reject(new Error(`The agent's WebSocket is not available (${reason}).`));
    };
    const timer = setTimeout(() => fail('no answer'), AUTH_TIMEOUT_MS);
    socket.onopen = () => socket.send(JSON.stringify({ type: 'ping' }));
    socket.onmessage = (event) => {
      if (readSocketMessage<ChatFrame>(event.data).kind !== 'pong') return;
      clearTimeout(timer);
      resolve(socket);
    };
    socket.onclose = (event) => fail(`closed with ${event.code}`);
  });
}

/**
 * The agent over one WebSocket per panel, opened when first needed and again after it closed. The
 * panel runs one turn at a time, so one listener at a time gets frames; frames of other turns
 * (one this client stopped following) are let go.
 */
export function socketTransport(orgId: string, subject: ChatSubject): SocketTransport {
  let socket: Promise<WebSocket> | null = null;
  let listener: Listener | null = null;

  function onMessage(event: MessageEvent) {
    const current = listener;
    if (!current) return;
    const message = readSocketMessage<ChatFrame>(event.data);
    if (message.kind === 'refused') {
      if (current.started) return;
      listener = null;
      current.reject(new Error(message.error));
      return;
    }
    if (message.kind !== 'frame') return;
    if (current.turnId === null && message.frame.type === 'turn_started') current.turnId = message.turnId;
    if (current.turnId !== message.turnId) return;
    current.started = true;
    current.onFrame(message.frame, message.eventId);
    if (message.frame.type === 'done' || message.frame.type === 'error') {
      listener = null;
      current.resolve();
    }
  }

  function connect(): Promise<WebSocket> {
    const opening = openSocket(socketUrl(orgId)).then((open) => {
      open.onmessage = onMessage;
      open.onclose = () => {
        if (socket === opening) socket = null;
        const current = listener;
        listener = null;
        current?.reject(new Error('The connection to the agent closed.'));
      };
      return open;
    });
    socket = opening;
    opening.catch(() => {
      if (socket === opening) socket = null;
    });
    return opening;
  }

  /** The open socket; one that is closing (its close event not handled yet) is replaced. */
  async function ready(): Promise<WebSocket> {
    const open = await (socket ?? connect());
    return open.readyState === WebSocket.OPEN ? open : connect();
  }

  /** Sends the message and reports the frames of its turn until the turn's done or error. */
  async function listen(turnId: string | null, message: object, signal: AbortSignal, onFrame: FrameHandler) {
    const open = await ready();
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const entry: Listener = { turnId, started: false, onFrame, resolve, reject };
      listener?.reject(new Error('Another turn took the connection.'));
      listener = entry;
      signal.addEventListener(
        'abort',
        () => {
          if (listener === entry) listener = null;
          reject(signal.reason);
        },
        { once: true },
      );
      open.send(JSON.stringify(message));
    });
  }

  return {
    connect: async () => {
      await ready();
    },
    chat: (request, signal, onFrame) => listen(null, chatMessage(subject, request), signal, onFrame),
    resume: (request, signal, onFrame) => listen(request.turn_id, resumeMessage(request), signal, onFrame),
    follow: (turnId, lastEventId, signal, onFrame) => listen(turnId, followMessage(turnId, lastEventId), signal, onFrame),
    stop: async (turnId) => {
      const open = await ready();
      open.send(JSON.stringify(stopMessage(turnId)));
    },
    close: () => {
      const closing = socket;
      socket = null;
      void closing?.then(
        (open) => open.close(),
        () => undefined,
      );
    },
  };
}
