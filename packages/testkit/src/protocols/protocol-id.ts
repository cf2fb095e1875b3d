/** The wire protocols the mock server speaks. */
export type ProtocolId = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'cohere' | 'ollama';

/** Every protocol id. */
export const PROTOCOL_IDS: readonly ProtocolId[] = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'gemini',
  'bedrock',
  'cohere',
  'ollama',
];
