import type { MockRule, MockScript } from '@boxagnts/testkit';

export const MANAGER_MODEL = 'claude-sonnet-4-6';
export const EXECUTOR_MODEL = 'claude-haiku-4-5';

/** The two tasks the manager hands out, one file each. */
export const TASKS = [
  {
    description: 'rename in api.js',
    prompt:
      'In src/api.js rename the exported function fetchData to loadData. Change nothing else. Read the file first, then edit it.',
  },
  {
    description: 'rename in report.js',
    prompt:
      'In src/report.js the imported function fetchData is now called loadData: update the import and every call. Read the file first, then edit it.',
  },
];

const usage = (input: number, output: number) => ({ input, output });

/**
 * The model's part when no API key is set: the manager (which sees only `agent` and `agent_status`)
 * starts one executor per file in the background, waits for both, and sums up; each executor reads
 * its file and edits it in its own git worktree with the real sandboxed tools.
 */
export function refactorScript(): MockScript {
  const executor = (file: string, oldString: string, replaceAll: boolean): MockRule => ({
    match: { model: EXECUTOR_MODEL, contains: `In ${file} ` },
    steps: [
      { content: [{ type: 'tool_call', name: 'read', input: { file_path: file } }], usage: usage(1100, 30) },
      {
        content: [
          {
            type: 'tool_call',
            name: 'edit',
            input: {
              file_path: file,
              old_string: oldString,
              new_string: oldString.replaceAll('fetchData', 'loadData'),
              replace_all: replaceAll,
            },
          },
        ],
        usage: usage(1300, 60),
      },
      { text: `Renamed fetchData to loadData in ${file}.`, usage: usage(1450, 20) },
    ],
  });
  return {
    chunking: { textDelta: 24, argumentsDelta: 32, delayMs: 2 },
    rules: [executor('src/api.js', 'fetchData', false), executor('src/report.js', 'fetchData', true)],
    steps: [
      {
        content: [
          { type: 'text', text: 'Two files use fetchData; one executor each, in parallel.' },
          ...TASKS.map((task) => ({
            type: 'tool_call' as const,
            name: 'agent',
            input: { ...task, run_in_background: true },
          })),
        ],
        usage: usage(2000, 180),
      },
      {
        content: TASKS.map((_, index) => ({
          type: 'tool_call' as const,
          name: 'agent_status',
          // Sub-agents are numbered in the order they start: agent-1-1, agent-1-2.
          input: { id: `agent-1-${index + 1}`, action: 'wait', timeout_seconds: 120 },
        })),
        usage: usage(2600, 60),
      },
      {
        text: 'Both executors finished: fetchData is now loadData in src/api.js and src/report.js. Their patches are ready to apply.',
        usage: usage(3400, 40),
      },
    ],
  };
}
