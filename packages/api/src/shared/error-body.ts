/** The parts of a vendor error body the classifier matches on. */
export interface ErrorBodyDetails {
  message: string | undefined;
  /** `error.type` (Anthropic, OpenAI). */
  type: string | undefined;
  /** `error.code` (OpenAI string codes, Gemini numeric HTTP codes as text). */
  code: string | undefined;
  /** `error.status` (Google's canonical code name, e.g. `RESOURCE_EXHAUSTED`). */
  status: string | undefined;
}

/**
 * Pulls message, type, code and status out of the error body shapes vendors use:
 * `{error: {message, type, code, status}}` (OpenAI, Anthropic, Gemini, most compatibles),
 * `[{error: {...}}]` (Gemini), `{error: "text"}` (Ollama), `{message}` / `{Message}` (Bedrock),
 * `{detail: "text"}` and `{errors: [{message}]}`. Accepts parsed JSON or text (text that is not
 * JSON becomes the message).
 */
export function extractErrorDetails(body: unknown): ErrorBodyDetails {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      const text = body.trim();
      return { message: text === '' ? undefined : text, type: undefined, code: undefined, status: undefined };
    }
  }
  if (Array.isArray(parsed)) parsed = parsed[0];
  const root = asRecord(parsed);
  const inner = asRecord(root?.error);
  const source = inner ?? root;
  const firstError = Array.isArray(root?.errors) ? asRecord(root.errors[0]) : undefined;
  return {
    message:
      text(source?.message) ??
      text(source?.Message) ??
      text(root?.error) ??
      text(root?.detail) ??
      text(firstError?.message) ??
      text(root?.message),
    type: text(source?.type),
    code: text(source?.code),
    status: text(source?.status),
  };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
