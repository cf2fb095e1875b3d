import { hasErrorMarker, LlmError } from '../spec/llm-error.js';

const PROVIDER_CONFIGURATION_MARKER: unique symbol = Symbol.for('boxagnts.api.error.provider_configuration');

/**
 * A provider cannot be used as configured: an unknown provider id, a base URL or parameter (Azure
 * resource, Vertex project) that is required and missing, an adapter that is not registered. Reason
 * `invalid_request`, never retried; the message says what to pass or set. It never holds a key.
 */
export class ProviderConfigurationError extends LlmError {
  readonly [PROVIDER_CONFIGURATION_MARKER] = true;
  override name = 'ProviderConfigurationError';

  constructor(options: { providerId?: string; message: string; cause?: unknown }) {
    super({
      reason: 'invalid_request',
      isRetryable: false,
      message: options.message,
      ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}

/** Whether `value` is a {@link ProviderConfigurationError}, across realms and duplicate package copies. */
export function isProviderConfigurationError(value: unknown): value is ProviderConfigurationError {
  return hasErrorMarker(value, PROVIDER_CONFIGURATION_MARKER);
}
