import type { QueryEvent, QueryOutcome } from '@boxagnts/query';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';

/** The `@opentelemetry/api` functions the spans need, loaded only when telemetry is on (it is an optional peer). */
export type OpenTelemetryApi = typeof import('@opentelemetry/api');

/** What a run's spans are labelled with. */
export interface RunSpanContext {
  agent: string;
  provider: string;
  model: string;
  sessionId: string;
}

/** Feeds a run's events into spans: one `invoke_agent`, one `chat` per model call, one `execute_tool` per tool call. */
export interface RunSpans {
  observe(event: QueryEvent): void;
  /** Ends every open span; with an outcome, marks the run with its reason (and error). */
  end(outcome?: QueryOutcome, error?: unknown): void;
}

/**
 * Spans of one run following the OpenTelemetry GenAI semantic conventions (v1.41): an
 * `invoke_agent {agent}` span around the run, a child `chat {model}` span per model call with
 * its token usage, and a child `execute_tool {tool}` span per tool call. Inputs, outputs and
 * prompts are never recorded (they may hold secrets); tool failures set `error.type`.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/
 */
export function createRunSpans(api: OpenTelemetryApi, tracer: Tracer, context: RunSpanContext): RunSpans {
  const base: Attributes = { 'gen_ai.provider.name': context.provider, 'gen_ai.conversation.id': context.sessionId };
  const run = tracer.startSpan(`invoke_agent ${context.agent}`, {
    kind: api.SpanKind.INTERNAL,
    attributes: {
      ...base,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': context.agent,
      'gen_ai.request.model': context.model,
    },
  });
  const parent = api.trace.setSpan(api.context.active(), run);
  let call: Span | undefined;
  const tools = new Map<string, Span>();
  let inputTokens = 0;
  let outputTokens = 0;
  const endCall = () => {
    call?.end();
    call = undefined;
  };
  return {
    observe(event) {
      switch (event.type) {
        case 'turn-start':
          endCall();
          call = tracer.startSpan(
            `chat ${event.model}`,
            {
              kind: api.SpanKind.CLIENT,
              attributes: { ...base, 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': event.model },
            },
            parent,
          );
          return;
        case 'usage': {
          inputTokens += event.usage.input.total;
          outputTokens += event.usage.output.total;
          const target =
            call ??
            tracer.startSpan(
              `chat ${event.model}`,
              { kind: api.SpanKind.CLIENT, attributes: { ...base, 'gen_ai.operation.name': 'chat' } },
              parent,
            );
          target.setAttributes({
            'gen_ai.response.model': event.model,
            'gen_ai.usage.input_tokens': event.usage.input.total,
            'gen_ai.usage.output_tokens': event.usage.output.total,
            ...(event.purpose === undefined ? {} : { 'boxagnts.call.purpose': event.purpose }),
          });
          if (target !== call) target.end();
          else endCall();
          return;
        }
        case 'tool-start':
          tools.get(event.toolCallId)?.end();
          tools.set(
            event.toolCallId,
            tracer.startSpan(
              `execute_tool ${event.name}`,
              {
                kind: api.SpanKind.INTERNAL,
                attributes: {
                  ...base,
                  'gen_ai.operation.name': 'execute_tool',
                  'gen_ai.tool.name': event.name,
                  'gen_ai.tool.call.id': event.toolCallId,
                },
              },
              parent,
            ),
          );
          return;
        case 'tool-end': {
          const span = tools.get(event.toolCallId);
          if (span === undefined) return;
          tools.delete(event.toolCallId);
          if (event.result.isError === true) {
            span.setAttribute('error.type', 'tool_error');
            span.setStatus({ code: api.SpanStatusCode.ERROR });
          }
          span.end();
          return;
        }
        default:
          return;
      }
    },
    end(outcome, error) {
      endCall();
      for (const span of tools.values()) span.end();
      tools.clear();
      run.setAttributes({ 'gen_ai.usage.input_tokens': inputTokens, 'gen_ai.usage.output_tokens': outputTokens });
      if (outcome !== undefined) run.setAttribute('boxagnts.run.reason', outcome.reason);
      if (error !== undefined || outcome?.reason === 'error') {
        run.setAttribute('error.type', error instanceof Error ? error.name : 'run_error');
        run.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      run.end();
    },
  };
}
