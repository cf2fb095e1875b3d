/** Model-list responses for the list endpoints clients call (`GET /v1/models`, Gemini, Ollama). */

const CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z, fixed so responses are stable

/** Which model-list shape a GET request asks for, or undefined when the path is not a list route. */
export function modelListKind(
  path: string,
  headers: Record<string, string>,
  query: URLSearchParams,
): 'anthropic' | 'openai' | 'gemini' | 'ollama' | undefined {
  if (path.endsWith('/api/tags')) return 'ollama';
  if (!/\/models\/?$/.test(path)) return undefined;
  if (headers['anthropic-version'] !== undefined) return 'anthropic';
  if (path.includes('/v1beta/') || headers['x-goog-api-key'] !== undefined || query.has('key')) return 'gemini';
  return 'openai';
}

/** The vendor's model-list body for these model ids. */
export function renderModelList(kind: 'anthropic' | 'openai' | 'gemini' | 'ollama', models: string[]): unknown {
  switch (kind) {
    case 'anthropic':
      // @see https://docs.anthropic.com/en/api/models-list
      return {
        data: models.map((id) => ({
          type: 'model',
          id,
          display_name: id,
          created_at: new Date(CREATED * 1000).toISOString(),
        })),
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models[models.length - 1] ?? null,
      };
    case 'openai':
      // @see https://platform.openai.com/docs/api-reference/models/list
      return {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'boxagnts-mock' })),
      };
    case 'gemini':
      // @see https://ai.google.dev/api/models#method:-models.list
      return {
        models: models.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          inputTokenLimit: 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
      };
    case 'ollama':
      // @see https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models
      return {
        models: models.map((name) => ({
          name,
          model: name,
          modified_at: new Date(CREATED * 1000).toISOString(),
          size: 0,
          digest: '0'.repeat(64),
          details: { format: 'gguf', family: 'mock', parameter_size: '0B', quantization_level: 'none' },
        })),
      };
  }
}
