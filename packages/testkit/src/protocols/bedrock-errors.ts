import type { MockErrorKind } from '../script/types.js';
import type { ErrorResponse, ResolvedError, WireEvent } from './protocol.js';

/**
 * Bedrock Runtime errors: the exception name in the `x-amzn-ErrorType` header and `{"message": ...}`
 * as the body; in a ConverseStream, an event-stream frame with `:message-type: exception`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html
 */

interface BedrockErrorSpec {
  /** The exception name of the HTTP error (`x-amzn-ErrorType`). */
  exception: string;
  status: number;
  /** The member of the ConverseStream output union an in-stream error arrives as. */
  streamException: string;
}

const SPECS: Record<MockErrorKind, BedrockErrorSpec> = {
  rate_limit: { exception: 'ThrottlingException', status: 429, streamException: 'throttlingException' },
  // InvokeModel documents ServiceQuotaExceededException as a 400; the stream union has no quota
  // member, so a quota error mid-stream is a throttlingException.
  quota: { exception: 'ServiceQuotaExceededException', status: 400, streamException: 'throttlingException' },
  overloaded: { exception: 'ServiceUnavailableException', status: 503, streamException: 'serviceUnavailableException' },
  context_overflow: { exception: 'ValidationException', status: 400, streamException: 'validationException' },
  // A bad SigV4 key or token is rejected by the AWS front door, not by Bedrock itself.
  auth: { exception: 'UnrecognizedClientException', status: 403, streamException: 'internalServerException' },
  permission: { exception: 'AccessDeniedException', status: 403, streamException: 'internalServerException' },
  not_found: { exception: 'ResourceNotFoundException', status: 404, streamException: 'internalServerException' },
  invalid_request: { exception: 'ValidationException', status: 400, streamException: 'validationException' },
  server: { exception: 'InternalServerException', status: 500, streamException: 'modelStreamErrorException' },
};

function defaultMessage(error: ResolvedError, inStream: boolean): string {
  switch (error.error) {
    case 'rate_limit':
      return 'Too many requests, please wait before trying again.';
    case 'quota':
      return 'Your request exceeds the service quota for your account. You can resubmit your request later.';
    case 'overloaded':
      return 'Bedrock is unable to process your request.';
    case 'context_overflow':
      if (error.requestedTokens === undefined && error.limitTokens === undefined) {
        return 'Input is too long for requested model.';
      }
      // The wording Bedrock passes through from Anthropic models when the counts are known.
      return (
        'The model returned the following errors: prompt is too long: ' +
        `${error.requestedTokens ?? (error.limitTokens ?? 200000) + 1} tokens > ${error.limitTokens ?? 200000} maximum`
      );
    case 'auth':
      return 'The security token included in the request is invalid.';
    case 'permission':
      return "You don't have access to the model with the specified model ID.";
    case 'not_found':
      return 'Could not resolve the foundation model from the provided model identifier.';
    case 'invalid_request':
      return 'Malformed input request, please reformat your input and try again.';
    default:
      return inStream
        ? 'A streaming error occurred. Retry your request.'
        : 'The system encountered an unexpected error during processing. Try your request again.';
  }
}

/** A Bedrock HTTP error response. */
export function bedrockErrorResponse(error: ResolvedError): ErrorResponse {
  const spec = SPECS[error.error];
  const domain = error.error === 'auth' ? 'com.amazon.coral.service' : 'com.amazon.bedrock';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-amzn-ErrorType': `${spec.exception}:http://internal.amazon.com/coral/${domain}/`,
  };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status ?? spec.status,
    headers,
    body: JSON.stringify({ message: error.message ?? defaultMessage(error, false) }),
  };
}

/** A ConverseStream exception frame (`:message-type: exception`, `:exception-type: <member>`). */
export function bedrockStreamError(error: ResolvedError): WireEvent {
  return {
    eventType: SPECS[error.error].streamException,
    messageType: 'exception',
    data: JSON.stringify({ message: error.message ?? defaultMessage(error, true) }),
  };
}
