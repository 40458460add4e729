export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;

  constructor(status: number, code: string, detail: string) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

type Method = 'GET' | 'POST' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  // Login answers 401 for a wrong password, which must be shown to the user rather
  // than treated as an expired session.
  redirectOnUnauthorized?: boolean;
}

let csrfToken: string | null = null;
let unauthorizedHandler: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

async function readError(response: Response): Promise<ApiError> {
  const fallback = `Request failed (${response.status} ${response.statusText}).`;
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null) {
      const { detail, code } = body as { detail?: unknown; code?: unknown };
      return new ApiError(
        response.status,
        typeof code === 'string' ? code : 'unknown',
        typeof detail === 'string' && detail !== '' ? detail : fallback,
      );
    }
  } catch {
    // A proxy or crash page may answer with HTML; the status line is all we have then.
  }
  return new ApiError(response.status, 'unknown', fallback);
}

async function send(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers({ accept: 'application/json' });
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
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
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

export async function getJson<T>(path: string): Promise<T> {
  const response = await send('GET', path);
  return (await response.json()) as T;
}

export async function postJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send('POST', path, options);
  return (await response.json()) as T;
}

export async function postNoContent(path: string, options: RequestOptions = {}): Promise<void> {
  await send('POST', path, options);
}

export async function deleteNoContent(path: string): Promise<void> {
  await send('DELETE', path);
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
