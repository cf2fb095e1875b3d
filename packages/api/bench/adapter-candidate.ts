import type { LlmProvider } from '../src/spec/provider.js';
import type { Candidate } from './candidate.js';
import type { AssembledText, BenchProtocol } from './protocols.js';

/** A provider built by an adapter factory against the mock server's URL. */
export type ProviderFactory = (serverUrl: string) => LlmProvider;

/**
 * A candidate for one adapter: `streamMessage` iterated to the end, text and thinking deltas
 * appended. The adapter runs with its defaults (shared agent, retries, stall timers), as users get it.
 */
export function adapterCandidate(protocol: BenchProtocol, create: ProviderFactory): Candidate {
  return {
    id: `adapter:${protocol}`,
    kind: 'adapter',
    protocols: [protocol],
    setup(serverUrl) {
      const provider = create(serverUrl);
      return {
        async run(target) {
          const assembled: AssembledText = { text: '', reasoning: '' };
          const events = provider.streamMessage({
            model: target.model,
            messages: [{ role: 'user', content: 'Write a long answer.' }],
            maxOutputTokens: 4096,
          });
          for await (const event of events) {
            if (event.type === 'text-delta') assembled.text += event.delta;
            else if (event.type === 'thinking-delta') assembled.reasoning += event.delta;
            else if (event.type === 'error') throw event.error;
          }
          return assembled;
        },
      };
    },
  };
}
