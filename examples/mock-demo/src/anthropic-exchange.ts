import Anthropic from '@anthropic-ai/sdk';
import { getWeather, weatherSchema } from './weather.js';

/** One tool-calling exchange through the official Anthropic SDK, streaming; returns the final answer. */
export async function anthropicExchange(baseURL: string, print: (line: string) => void): Promise<string> {
  const client = new Anthropic({ baseURL, apiKey: 'demo-key-not-secret', maxRetries: 0 });
  const tools = [{ name: 'get_weather', description: 'Current weather of a city', input_schema: weatherSchema }];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
  for (let turn = 1; turn <= 4; turn++) {
    const stream = client.messages.stream({ model: 'claude-demo', max_tokens: 1024, messages, tools });
    for await (const event of stream) {
      if (event.type === 'content_block_start') print(`  [anthropic] ${event.content_block.type} starts`);
      if (event.type === 'content_block_delta') {
        const delta = event.delta;
        if (delta.type === 'text_delta') print(`  [anthropic]   text  +${JSON.stringify(delta.text)}`);
        if (delta.type === 'thinking_delta') print(`  [anthropic]   think +${JSON.stringify(delta.thinking)}`);
        if (delta.type === 'input_json_delta') print(`  [anthropic]   args  +${delta.partial_json}`);
      }
    }
    const message = await stream.finalMessage();
    print(
      `  [anthropic] stop_reason=${message.stop_reason} usage in=${message.usage.input_tokens} out=${message.usage.output_tokens} cache_read=${message.usage.cache_read_input_tokens}`,
    );
    messages.push({ role: 'assistant', content: message.content });
    const calls = message.content.filter((block) => block.type === 'tool_use');
    if (calls.length === 0) {
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
    messages.push({
      role: 'user',
      content: calls.map((call) => {
        const result = getWeather(call.input as { city: string });
        print(`  [anthropic] ran ${call.name}(${JSON.stringify(call.input)}) -> ${JSON.stringify(result)}`);
        return { type: 'tool_result' as const, tool_use_id: call.id, content: JSON.stringify(result) };
      }),
    });
  }
  throw new Error('the Anthropic exchange did not finish within 4 turns');
}
