import OpenAI from 'openai';
import { getWeather, weatherSchema } from './weather.js';

/** One tool-calling exchange through the official OpenAI SDK (Chat Completions, streaming). */
export async function openaiExchange(baseURL: string, print: (line: string) => void): Promise<string> {
  const client = new OpenAI({ baseURL, apiKey: 'demo-key-not-secret', maxRetries: 0 });
  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: { name: 'get_weather', description: 'Current weather of a city', parameters: weatherSchema },
    },
  ];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];
  for (let turn = 1; turn <= 4; turn++) {
    const stream = await client.chat.completions.create({
      model: 'gpt-demo',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        text += choice.delta.content;
        print(`  [openai]    text  +${JSON.stringify(choice.delta.content)}`);
      }
      for (const call of choice?.delta.tool_calls ?? []) {
        const slot = calls[call.index] ?? { id: '', name: '', arguments: '' };
        calls[call.index] = slot;
        if (call.id) slot.id = call.id;
        if (call.function?.name) {
          slot.name = call.function.name;
          print(`  [openai]    tool_call ${call.function.name} starts (${call.id})`);
        }
        if (call.function?.arguments) {
          slot.arguments += call.function.arguments;
          print(`  [openai]      args  +${call.function.arguments}`);
        }
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) {
        print(
          `  [openai]    usage prompt=${chunk.usage.prompt_tokens} completion=${chunk.usage.completion_tokens} cached=${chunk.usage.prompt_tokens_details?.cached_tokens ?? 0}`,
        );
      }
    }
    print(`  [openai]    finish_reason=${finish}`);
    if (calls.length === 0) return text;
    messages.push({
      role: 'assistant',
      content: text || null,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls) {
      const result = getWeather(JSON.parse(call.arguments) as { city: string });
      print(`  [openai]    ran ${call.name}(${call.arguments}) -> ${JSON.stringify(result)}`);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error('the OpenAI exchange did not finish within 4 turns');
}
