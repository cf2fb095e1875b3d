import type { MockScript } from '@boxagnts/testkit';

/** The one tool of the demo, run locally when the model asks for it. */
export function getWeather(input: { city: string }): { city: string; temperatureC: number; sky: string } {
  const table: Record<string, { temperatureC: number; sky: string }> = {
    Paris: { temperatureC: 18, sky: 'sunny' },
    Oslo: { temperatureC: 4, sky: 'snowing' },
  };
  return { city: input.city, ...(table[input.city] ?? { temperatureC: 21, sky: 'clear' }) };
}

/** JSON Schema of `get_weather`, as both SDKs send it. */
export const weatherSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] } = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
};

/** Two turns per protocol: ask for the tool, then answer from its result. */
export function demoScript(): MockScript {
  const exchange = (city: string, answer: string) => [
    {
      content: [
        {
          type: 'thinking' as const,
          thinking: `The user wants the weather in ${city}; call the tool.`,
          signature: 'sig-demo',
        },
        { type: 'text' as const, text: `Let me check the weather in ${city}.` },
        { type: 'tool_call' as const, name: 'get_weather', input: { city } },
      ],
      usage: { input: 120, output: 30, cacheRead: 100 },
    },
    { text: answer, usage: { input: 180, output: 14, cacheRead: 100 } },
  ];
  return {
    chunking: { textDelta: 6, argumentsDelta: 5, delayMs: 10 },
    rules: [
      { match: { protocol: 'anthropic' }, steps: exchange('Paris', 'It is 18°C and sunny in Paris.') },
      { match: { protocol: 'openai-chat' }, steps: exchange('Oslo', 'It is 4°C and snowing in Oslo.') },
    ],
  };
}
