import { redactSecrets } from '../shared/redact-secrets.js';
import { createLlmError } from '../spec/create-llm-error.js';
import { isLlmError, type LlmError, type LlmErrorReason } from '../spec/llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../spec/provider.js';
import type { LlmRequest } from '../spec/request.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { ProviderConfigurationError } from './provider-configuration-error.js';

/** The adapter id of chain rows (`adapter: 'provider-chain'`). */
export const PROVIDER_CHAIN_ADAPTER = 'provider-chain';

/** One link of a {@link createProviderChain} chain: a provider and the model it is asked for by default. */
export interface ProviderChainUpstream {
  /**
   * The provider: an {@link LlmProvider}, or a provider id the chain's `resolveProvider` turns into
   * one (a chain row in a registry resolves ids through that registry).
   */
  provider: string | LlmProvider;
  /** The model this upstream serves when the request does not pin one (`llama-3.3-70b-versatile`). */
  model: string;
  /** The name a request uses to pin this upstream (`groq/<model>`); default the provider's id. */
  id?: string;
  /** Other names that pin it too (BoxAgnts' legacy `zen/<model>` for `opencode-zen`). */
  aliases?: readonly string[];
}

/** Settings of {@link createProviderChain} (and of a row with `adapter: 'provider-chain'`). */
export interface ProviderChainSettings {
  /** The chain's provider id (`free`), in errors and the `<id>/auto` model. Default `provider-chain`. */
  providerId?: string;
  /** Display name. */
  providerName?: string;
  /** The upstreams, in the order they are tried. */
  upstreams: readonly ProviderChainUpstream[];
  /** Turns a provider id of {@link ProviderChainUpstream.provider} into a provider (the registry passes its own). */
  resolveProvider?: (id: string) => LlmProvider;
  /**
   * Whether an upstream given by id can be used now (its key is set). Upstreams it refuses are left
   * out of the chain when a request is made, so a chain of free tiers uses the ones you have keys for.
   */
  isAvailable?: (id: string) => boolean;
  /**
   * Failure reasons that end the chain instead of trying the next upstream. Default
   * {@link CHAIN_FINAL_REASONS}: what the user must fix and every upstream would refuse the same way
   * (`invalid_request`, `content_filter`), and cancellation (`aborted`).
   */
  finalReasons?: readonly LlmErrorReason[];
}

/** The reasons a chain does not fall over on (see {@link ProviderChainSettings.finalReasons}). */
export const CHAIN_FINAL_REASONS: readonly LlmErrorReason[] = ['invalid_request', 'content_filter', 'aborted'];

interface Link {
  id: string;
  names: readonly string[];
  provider: LlmProvider;
  model: string;
}

/**
 * A provider that tries a chain of upstreams in order, each with its default model, and moves to the
 * next when one fails before it has answered: a refused key, a rate limit, an overloaded or broken
 * server, a network failure, a stall, a missing key. It does not fall over on what every upstream
 * would refuse alike (an invalid request, a content filter) nor on cancellation. Once the first
 * content event of a stream has reached the caller, the chain is committed to that upstream: a later
 * failure ends the stream with its error, as any stream does, and nothing is replayed elsewhere.
 *
 * Models: `auto`, `<chain id>/auto`, the chain id or an empty model try every upstream with its own
 * default model; `<upstream id>/<model>` tries that upstream first with that model (an upstream's own
 * default model written in full, such as `openrouter/free`, pins it with that model), then the others
 * with theirs; any other model is treated as `auto` (as BoxAgnts' `free` provider does). When every
 * upstream fails, the error has the last upstream's reason and a message naming each failure.
 *
 * @example
 * const chain = createProviderChain({
 *   providerId: 'my-chain',
 *   upstreams: [
 *     { provider: getProvider('groq'), model: 'llama-3.3-70b-versatile' },
 *     { provider: getProvider('cerebras'), model: 'gpt-oss-120b' },
 *   ],
 * });
 * for await (const event of chain.streamMessage({ model: 'auto', messages })) ...
 */
export function createProviderChain(settings: ProviderChainSettings): LlmProvider {
  const chainId = settings.providerId ?? PROVIDER_CHAIN_ADAPTER;
  const finalReasons = new Set<LlmErrorReason>(settings.finalReasons ?? CHAIN_FINAL_REASONS);
  if (settings.upstreams.length === 0) {
    throw new ProviderConfigurationError({
      providerId: chainId,
      message: `Provider chain "${chainId}" has no upstreams: give it at least one { provider, model }.`,
    });
  }
  for (const upstream of settings.upstreams) {
    if (typeof upstream.model !== 'string' || upstream.model.trim() === '') {
      throw new ProviderConfigurationError({
        providerId: chainId,
        message: `Provider chain "${chainId}": upstream "${upstreamId(upstream)}" has no default model; set its \`model\`.`,
      });
    }
    if (typeof upstream.provider === 'string' && settings.resolveProvider === undefined) {
      throw new ProviderConfigurationError({
        providerId: chainId,
        message: `Provider chain "${chainId}": upstream "${upstream.provider}" is a provider id, but the chain has no \`resolveProvider\`: pass an LlmProvider, or register the chain as a row (adapter "provider-chain") in a registry.`,
      });
    }
  }

  /** The links usable now, resolved when a request is made (keys are read then, never at creation). */
  function links(): Link[] {
    const usable = settings.upstreams.filter(
      (upstream) =>
        typeof upstream.provider !== 'string' ||
        settings.isAvailable === undefined ||
        settings.isAvailable(upstream.provider),
    );
    if (usable.length === 0) {
      const ids = settings.upstreams.map(upstreamId).join(', ');
      throw createLlmError({
        reason: 'auth',
        providerId: chainId,
        message: `Provider chain "${chainId}" has no usable upstream: configure a key for at least one of ${ids}.`,
      });
    }
    return usable.map((upstream) => ({
      id: upstreamId(upstream),
      names: [upstreamId(upstream), ...(upstream.aliases ?? [])],
      provider:
        typeof upstream.provider === 'string'
          ? (settings.resolveProvider as (id: string) => LlmProvider)(upstream.provider)
          : upstream.provider,
      model: upstream.model,
    }));
  }

  /** The (link, model) attempts for a requested model, in order. */
  function plan(model: string): Array<{ link: Link; model: string }> {
    const all = links();
    const requested = model.trim();
    for (const [index, link] of all.entries()) {
      const name = link.names.find((candidate) => requested.startsWith(`${candidate}/`));
      if (name === undefined) continue;
      const rest = requested.slice(name.length + 1);
      if (rest === '' || rest === 'auto') break;
      // `openrouter/free` names the upstream's own default model (OpenRouter ids carry a vendor prefix).
      const pinned = requested === link.model ? link.model : rest;
      return [
        { link, model: pinned },
        ...all.filter((_, other) => other !== index).map((other) => ({ link: other, model: other.model })),
      ];
    }
    return all.map((link) => ({ link, model: link.model }));
  }

  function fallsOver(error: LlmError, signal: AbortSignal | undefined): boolean {
    return signal?.aborted !== true && !finalReasons.has(error.reason);
  }

  function exhausted(failures: ReadonlyArray<{ id: string; error: LlmError }>): LlmError {
    const last = failures[failures.length - 1]?.error as LlmError;
    if (failures.length === 1) return last;
    const summary = failures
      .map(({ id, error }) => `${id} (${error.reason}): ${redactSecrets(error.message)}`)
      .join('; ');
    return createLlmError({
      reason: last.reason,
      providerId: chainId,
      message: `Every upstream of provider chain "${chainId}" failed before answering: ${summary}`,
      cause: last,
      ...(last.status === undefined ? {} : { status: last.status }),
      ...(last.retryAfterMs === undefined ? {} : { retryAfterMs: last.retryAfterMs }),
    });
  }

  return {
    id: chainId,
    name: settings.providerName ?? chainId,
    adapter: PROVIDER_CHAIN_ADAPTER,

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      return (async function* stream(): AsyncGenerator<StreamEvent> {
        let attempts: ReturnType<typeof plan>;
        try {
          attempts = plan(request.model);
        } catch (error) {
          yield { type: 'error', error: asLlmError(error, chainId) };
          return;
        }
        const failures: Array<{ id: string; error: LlmError }> = [];
        for (const attempt of attempts) {
          // Starts are held back until the upstream shows it is answering: an upstream that fails
          // right after `message-start` still falls over, and the caller sees one start only.
          const held: StreamEvent[] = [];
          let committed = false;
          let finished = false;
          let failure: LlmError | undefined;
          const iterator = attempt.link.provider
            .streamMessage({ ...request, model: attempt.model }, options)
            [Symbol.asyncIterator]();
          try {
            while (true) {
              let next: IteratorResult<StreamEvent>;
              try {
                next = await iterator.next();
              } catch (error) {
                // A third-party provider may throw instead of yielding an error event.
                if (committed) {
                  yield { type: 'error', error: asLlmError(error, attempt.link.id) };
                  return;
                }
                failure = asLlmError(error, attempt.link.id);
                break;
              }
              if (next.done === true) {
                finished = true;
                break;
              }
              const event = next.value;
              if (!committed) {
                if (event.type === 'message-start') {
                  held.push(event);
                  continue;
                }
                if (event.type === 'error' && fallsOver(event.error, options.signal)) {
                  failure = event.error;
                  break;
                }
                committed = true;
                yield* held;
              }
              yield event;
            }
          } finally {
            // Close an upstream left mid-stream: one that failed over, or a caller that stopped reading.
            if (!finished) await iterator.return?.();
          }
          if (failure === undefined) {
            if (!committed) yield* held;
            return;
          }
          failures.push({ id: attempt.link.id, error: failure });
        }
        yield { type: 'error', error: exhausted(failures) };
      })();
    },

    async createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
      const failures: Array<{ id: string; error: LlmError }> = [];
      for (const attempt of plan(request.model)) {
        try {
          return await attempt.link.provider.createMessage({ ...request, model: attempt.model }, options);
        } catch (error) {
          const failure = asLlmError(error, attempt.link.id);
          if (!fallsOver(failure, options.signal)) throw failure;
          failures.push({ id: attempt.link.id, error: failure });
        }
      }
      throw exhausted(failures);
    },

    async listModels(): Promise<ModelInfo[]> {
      return [
        { id: 'auto', name: `${settings.providerName ?? chainId}: each upstream in turn, with its default model` },
        ...links().map((link) => ({ id: `${link.id}/${link.model}`, name: `${link.id}: ${link.model}` })),
      ];
    },
  };
}

function upstreamId(upstream: ProviderChainUpstream): string {
  return upstream.id ?? (typeof upstream.provider === 'string' ? upstream.provider : upstream.provider.id);
}

function asLlmError(error: unknown, providerId: string): LlmError {
  if (isLlmError(error)) return error;
  return createLlmError({
    reason: 'unknown',
    providerId,
    cause: error,
    message: `Provider "${providerId}" failed: ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
  });
}
