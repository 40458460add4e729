/** One problem of an invalid input, named by its dot path ("" is the root). */
export interface InputProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  /** What a 400 lists as wrong with the body, each with its path; empty otherwise. */
  readonly problems: InputProblem[];

  constructor(status: number, code: string, detail: string, problems: InputProblem[] = []) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.problems = problems;
  }
}

function isInputProblem(value: unknown): value is InputProblem {
  if (typeof value !== 'object' || value === null) return false;
  const { path, message } = value as { path?: unknown; message?: unknown };
  return typeof path === 'string' && typeof message === 'string';
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  // Login answers 401 for a wrong password, which must be shown to the user rather
  // than treated as an expired session.
  redirectOnUnauthorized?: boolean;
  /** Aborts the request, or the reading of a stream it answered with. */
  signal?: AbortSignal;
  /** What the response is expected to be; JSON unless said. */
  accept?: string;
  headers?: Record<string, string>;
}

let csrfToken: string | null = null;
let unauthorizedHandler: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

function errorFromBody(status: number, statusText: string, body: unknown): ApiError {
  const fallback = `Request failed (${status} ${statusText}).`;
  if (typeof body === 'object' && body !== null) {
    const { detail, code, errors } = body as { detail?: unknown; code?: unknown; errors?: unknown };
    return new ApiError(
      status,
      typeof code === 'string' ? code : 'unknown',
      typeof detail === 'string' && detail !== '' ? detail : fallback,
      Array.isArray(errors) ? errors.filter(isInputProblem) : [],
    );
  }
  return new ApiError(status, 'unknown', fallback);
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy or crash page may answer with HTML; the status line is all we have then.
  }
  return errorFromBody(response.status, response.statusText, body);
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const networkError = () => new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');

async function send(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers({ ...options.headers, accept: options.accept ?? 'application/json' });
  if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
  }
  if (method !== 'GET' && csrfToken !== null) {
    headers.set('x-csrf-token', csrfToken);
  }

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw networkError();
  }

  if (!response.ok) {
    const error = await readError(response);
    if (response.status === 401 && options.redirectOnUnauthorized !== false) {
      unauthorizedHandler?.();
    }
    throw error;
  }
  return response;
}

/**
 * The body of a successful answer. Something that is not JSON (a proxy's error page, an old
 * server) is said in words, never as the parser's message.
 */
async function readJson<T>(response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(
      response.status,
      'unreadable_response',
      'The server answered with something this page cannot read. Reload the page; if it happens again, the server may be restarting or behind a misconfigured proxy.',
    );
  }
}

export async function getJson<T>(path: string): Promise<T> {
  return readJson<T>(await send('GET', path));
}

export async function postJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return readJson<T>(await send('POST', path, options));
}

export async function putJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return readJson<T>(await send('PUT', path, options));
}

export async function patchJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return readJson<T>(await send('PATCH', path, options));
}

export async function getText(path: string): Promise<string> {
  const response = await send('GET', path, { accept: '*/*' });
  return response.text();
}

export async function postNoContent(path: string, options: RequestOptions = {}): Promise<void> {
  await send('POST', path, options);
}

export async function putNoContent(path: string, options: RequestOptions = {}): Promise<void> {
  await send('PUT', path, options);
}

/**
 * A response whose body is a stream of Server-Sent Events (POST: a JSON body goes with it). An
 * error found before the stream started is an ordinary JSON error, thrown as ApiError.
 */
export async function eventStream(
  method: 'GET' | 'POST',
  path: string,
  options: RequestOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const response = await send(method, path, { ...options, accept: 'text/event-stream' });
  if (!response.body) {
    throw new ApiError(response.status, 'unreadable_response', 'The server answered without a stream.');
  }
  return response.body;
}

export async function deleteNoContent(path: string): Promise<void> {
  await send('DELETE', path);
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POSTs a multipart form and reports how much of it has been sent. It uses XMLHttpRequest
 * because fetch cannot report upload progress.
 */
export function postMultipart<T>(
  path: string,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('accept', 'application/json');
    if (csrfToken !== null) {
      request.setRequestHeader('x-csrf-token', csrfToken);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        onProgress({ loaded: event.loaded, total: event.total });
      }
    };
    request.onload = () => {
      const body = parseJsonText(request.responseText);
      if (request.status >= 200 && request.status < 300 && body !== null) {
        resolve(body as T);
        return;
      }
      if (request.status >= 200 && request.status < 300) {
        reject(
          new ApiError(
            request.status,
            'unreadable_response',
            'The server accepted the upload but its answer could not be read. Reload the page to see the document.',
          ),
        );
        return;
      }
      if (request.status === 401) {
        unauthorizedHandler?.();
      }
      reject(errorFromBody(request.status, request.statusText, body));
    };
    request.onerror = () => reject(networkError());
    request.onabort = () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(form);
  });
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.detail;
  }
  if (error instanceof Error && error.message !== '') {
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
