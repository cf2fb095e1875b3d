import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { bedrockErrorBody, bedrockErrorType } from './bedrock-errors.js';

const MAX_ERROR_BODY_BYTES = 65_536;

const composed = new WeakMap<Dispatcher, Dispatcher>();

/**
 * `dispatcher` with an interceptor that does for undici `request()` what `withBedrockErrorType`
 * does for fetch: a non-2xx, non-redirect response that names its exception in `x-amzn-ErrorType`
 * gets a body carrying that name as `type` (at most 64 KiB of the original body is read), so the
 * shared error classifier, which sees only the body, tells an `UnrecognizedClientException` (auth)
 * from an `AccessDeniedException` (permission) or a `ServiceQuotaExceededException` (quota) from a
 * plain 400. Successful responses pass through untouched (one extra call per body chunk). The
 * composed dispatcher is cached per underlying dispatcher, so the pool (and its keep-alive
 * connections) is the same one.
 *
 * @example
 * const response = await sendStreamRequest({ ..., dispatcher: withBedrockErrorTypeDispatcher(agent) });
 */
export function withBedrockErrorTypeDispatcher(dispatcher: Dispatcher): Dispatcher {
  // A hand-written dispatcher without `compose` is used as is (its errors are classified by status).
  if (typeof dispatcher.compose !== 'function') return dispatcher;
  let wrapped = composed.get(dispatcher);
  if (wrapped === undefined) {
    wrapped = dispatcher.compose(
      (dispatch) => (options, handler) =>
        dispatch(options, new ErrorTypeHandler(handler as Dispatcher.DispatchHandler)),
    );
    composed.set(dispatcher, wrapped);
  }
  return wrapped;
}

/** Passes everything through, except the body of an error response that `x-amzn-ErrorType` names. */
class ErrorTypeHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  #errorType: string | undefined;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(handler: Dispatcher.DispatchHandler) {
    this.#handler = handler;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>[3],
  ): void {
    this.#handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    let forwarded = headers;
    if (statusCode >= 400) {
      const value = headers['x-amzn-errortype'];
      this.#errorType = bedrockErrorType({ get: () => (Array.isArray(value) ? value[0] : value) ?? null });
      if (this.#errorType !== undefined) {
        // The body is rewritten, so its length changes.
        const { 'content-length': _length, ...rest } = headers;
        forwarded = rest;
      }
    }
    this.#handler.onResponseStart?.(controller, statusCode, forwarded, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#errorType === undefined) {
      this.#handler.onResponseData?.(controller, chunk);
      return;
    }
    if (this.#bytes < MAX_ERROR_BODY_BYTES) {
      const part = chunk.subarray(0, MAX_ERROR_BODY_BYTES - this.#bytes);
      this.#chunks.push(part);
      this.#bytes += part.byteLength;
    }
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    if (this.#errorType !== undefined) {
      const text = Buffer.concat(this.#chunks).toString('utf8');
      const body = JSON.stringify(bedrockErrorBody(text, this.#errorType));
      this.#handler.onResponseData?.(controller, Buffer.from(body, 'utf8'));
    }
    this.#handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#handler.onResponseError?.(controller, error);
  }
}
