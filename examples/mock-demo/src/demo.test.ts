import { describe, expect, it } from 'vitest';
import { runDemo } from './demo.js';

describe('the self-demo', () => {
  it('completes both tool-calling exchanges through the official SDKs and prints the stream', async () => {
    const lines: string[] = [];
    const result = await runDemo((line) => lines.push(line));
    expect(result.anthropicAnswer).toBe('It is 18°C and sunny in Paris.');
    expect(result.openaiAnswer).toBe('It is 4°C and snowing in Oslo.');
    expect(result.requests).toBe(4);
    const output = lines.join('\n');
    expect(output).toContain('[anthropic] ran get_weather({"city":"Paris"})');
    expect(output).toContain('[openai]    ran get_weather({"city":"Oslo"})');
    expect(output).toContain('stop_reason=tool_use');
    expect(output).toContain('finish_reason=tool_calls');
    expect(output).toContain('cache_read=100');
  });
});
