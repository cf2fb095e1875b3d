import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import { OLLAMA_ERROR_RULES, ollamaStreamError, refineOllamaError } from './ollama-errors.js';

function classify(status: number, message: string) {
  return refineOllamaError(
    classifyHttpError({
      status,
      body: JSON.stringify({ error: message }),
      providerId: 'ollama',
      rules: OLLAMA_ERROR_RULES,
    }),
    'requested-model',
  );
}

describe('Ollama error wording', () => {
  it.each([
    [404, "model 'llama3.2' not found", 'not_found'],
    [404, "model 'x' not found, try pulling it first", 'not_found'],
    [400, 'the input length exceeds the context length', 'context_overflow'],
    [503, 'server busy, please try again.  maximum pending requests exceeded', 'overloaded'],
    [429, "you've reached your weekly usage limit, upgrade for higher limits: https://ollama.com/upgrade", 'quota'],
    [429, "you've reached your session usage limit, please wait or upgrade to continue", 'rate_limit'],
    [500, 'model requires more system memory (12.0 GiB) than is available (8.0 GiB)', 'server'],
    [401, 'unauthorized', 'auth'],
    [400, 'registry.ollama.ai/library/gemma:2b does not support tools', 'invalid_request'],
  ] as const)('HTTP %i "%s" is %s', (status, message, reason) => {
    expect(classify(status, message).reason).toBe(reason);
  });

  it('does not retry a model too big for the machine', () => {
    expect(classify(500, 'model requires more system memory (12.0 GiB) than is available (8.0 GiB)').isRetryable).toBe(
      false,
    );
  });

  it('tells how to get a missing model, naming the model Ollama named', () => {
    const error = classify(404, "model 'llama3.2' not found");
    expect(error.message).toBe(
      'Ollama does not have the model "llama3.2": pull it first with `ollama pull llama3.2` (or check the model name and base URL).',
    );
    expect(error.status).toBe(404);
  });

  it('leaves other 404s alone (a wrong base URL)', () => {
    const error = classify(404, '404 page not found');
    expect(error.reason).toBe('not_found');
    expect(error.message).not.toContain('ollama pull');
  });

  it('classifies an error line by its wording, without an HTTP status', () => {
    expect(ollamaStreamError('server busy, please try again.', { providerId: 'ollama', model: 'm' })).toMatchObject({
      reason: 'overloaded',
      status: undefined,
      isRetryable: true,
    });
    const unknown = ollamaStreamError('an error was encountered while running the model', {
      providerId: 'ollama',
      model: 'm',
    });
    expect(unknown.reason).toBe('server');
    expect(unknown.message).toContain(
      'reported an error in the stream: an error was encountered while running the model',
    );
    expect(ollamaStreamError("model 'm' not found", { providerId: 'ollama', model: 'm' }).message).toContain(
      'ollama pull m',
    );
  });
});
