import type { ApiErrorBody } from '../../../src/http/api-types/index.js';

/**
 * The dashboard's one way to reach the gateway: same-origin fetch with the bearer token (when one is set),
 * JSON in and out, and the gateway's error shape (`{ error: { reason, message, issues } }`) turned into an
 * {@link ApiError}. Each area's typed calls live beside it (`api/<area>.ts`) and go through {@link request}.
 */

const TOKEN_KEY = 'boxagnts.token';

/** The gateway's error, as a value the UI can show: `message` says what to change. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly issues: readonly unknown[] = [],
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The token the user gave (kept in this browser's local storage, never in the page source). */
export function getToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function setToken(token: string | undefined): void {
  if (token === undefined || token === '') localStorage.removeItem(TOKEN_KEY);
  else localStorage.setItem(TOKEN_KEY, token);
  for (const listener of authListeners) listener();
}

const authListeners = new Set<() => void>();
/** Called when a request was refused for want of a valid token (the app then asks for one). */
export function onUnauthorized(listener: () => void): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}
let unauthorized = false;
export function isUnauthorized(): boolean {
  return unauthorized;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON body (an object), or a raw body (a Blob/FormData/string) sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function headersWithAuth(extra: Record<string, string> = {}): Record<string, string> {
  const token = getToken();
  return token === undefined ? { ...extra } : { ...extra, authorization: `Bearer ${token}` };
}

export function urlOf(path: string, query?: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** Sends a request; resolves the raw Response when it is 2xx, throws an {@link ApiError} otherwise. */
export async function send(path: string, options: RequestOptions = {}): Promise<Response> {
  const raw = options.body instanceof Blob || options.body instanceof FormData || typeof options.body === 'string';
  const headers = headersWithAuth({
    accept: 'application/json',
    ...(options.body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  });
  const response = await fetch(urlOf(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: raw ? (options.body as BodyInit) : JSON.stringify(options.body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (response.ok) {
    if (unauthorized) unauthorized = false;
    return response;
  }
  throw await errorOf(response);
}

export async function errorOf(response: Response): Promise<ApiError> {
  let reason = 'http';
  let message = `The gateway answered ${response.status} ${response.statusText}.`;
  let issues: unknown[] = [];
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    if (body.error?.reason !== undefined) reason = body.error.reason;
    if (body.error?.message !== undefined) message = body.error.message;
    if (Array.isArray(body.error?.issues)) issues = body.error.issues;
  } catch {
    // Not the gateway's JSON error shape (a proxy's page): keep the status line.
  }
  if (response.status === 401) {
    unauthorized = true;
    for (const listener of authListeners) listener();
  }
  return new ApiError(response.status, reason, message, issues);
}

/** A JSON request: the parsed body of a 2xx answer (undefined for 204). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
