import type { MockScript } from '@boxagnts/testkit';

/**
 * The model's part, played by the testkit over the Anthropic protocol: read the file, edit the
 * port, answer. The edit's `old_string` is what the real file holds, so the real edit tool works.
 */
export function configEditorScript(): MockScript {
  return {
    chunking: { textDelta: 12, argumentsDelta: 16, delayMs: 5 },
    steps: [
      {
        content: [
          { type: 'text', text: "I'll read config.toml first." },
          { type: 'tool_call', name: 'read', input: { file_path: 'config.toml' } },
        ],
        usage: { input: 1800, output: 40 },
      },
      {
        content: [
          { type: 'text', text: 'The server port is 8000; changing it to 8080.' },
          {
            type: 'tool_call',
            name: 'edit',
            input: { file_path: 'config.toml', old_string: 'port = 8000', new_string: 'port = 8080' },
          },
        ],
        usage: { input: 1950, output: 60, cacheRead: 1700 },
      },
      {
        text: 'Done: config.toml now sets port = 8080 (it was 8000).',
        usage: { input: 2050, output: 20, cacheRead: 1900 },
      },
    ],
  };
}
