import { orgApiPath } from './queries';

/** What a conversation with the agent is about. */
export interface ChatSubject {
  kind: 'document' | 'dataset' | 'project';
  id: string;
}

/**
 * Where the agent's requests about a subject go: a document keeps its DocRouter-compatible routes
 * under the document, any other subject uses the generic agent routes, which carry the subject in
 * the body or the query.
 */
export interface ChatRoutes {
  chat: string;
  /** The chat request's body as this route takes it. */
  chatBody: (request: object) => object;
  approve: string;
  stop: string;
  turnStream: (turnId: string) => string;
  /** Lists the subject's threads. */
  threadList: string;
  /** Creates a thread, with createThreadBody's body. */
  threads: string;
  createThreadBody: (title: string) => object;
  thread: (threadId: string) => string;
  tools: string;
  /** The argument check of a tool; null where the routes have none (the card then checks nothing before approval). */
  toolCheck: ((tool: string) => string) | null;
}

export function chatRoutesOf(orgId: string, subject: ChatSubject): ChatRoutes {
  if (subject.kind === 'document') {
    const base = `${orgApiPath(orgId)}/documents/${encodeURIComponent(subject.id)}/chat`;
    return {
      chat: base,
      chatBody: (request) => request,
      approve: `${base}/approve`,
      stop: `${base}/stop`,
      turnStream: (turnId) => `${base}/turns/${encodeURIComponent(turnId)}/stream`,
      threadList: `${base}/threads`,
      threads: `${base}/threads`,
      createThreadBody: (title) => ({ title }),
      thread: (threadId) => `${base}/threads/${encodeURIComponent(threadId)}`,
      tools: `${base}/tools`,
      toolCheck: (tool) => `${base}/tools/${encodeURIComponent(tool)}/check`,
    };
  }
  const base = `${orgApiPath(orgId)}/agent`;
  const subjectQuery = new URLSearchParams({ subject_kind: subject.kind, subject_id: subject.id });
  return {
    chat: `${base}/chat`,
    chatBody: (request) => ({ ...request, subject }),
    approve: `${base}/chat/approve`,
    stop: `${base}/chat/stop`,
    turnStream: (turnId) => `${base}/turns/${encodeURIComponent(turnId)}/stream`,
    threadList: `${base}/threads?${subjectQuery}`,
    threads: `${base}/threads`,
    createThreadBody: (title) => ({ subject, title }),
    thread: (threadId) => `${base}/threads/${encodeURIComponent(threadId)}`,
    tools: `${base}/tools?${new URLSearchParams({ subject_kind: subject.kind })}`,
    toolCheck: null,
  };
}
