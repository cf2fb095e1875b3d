import type { MockBlock, MockRule, MockScript } from '@boxagnts/testkit';

/** The model that plays the lead reviewer, and the cheaper one its read-only reviewers run on. */
export const LEAD_MODEL = 'claude-sonnet-4-6';
export const REVIEWER_MODEL = 'claude-haiku-4-5';

/** What each reviewer of the bundled `sample/` folder reports, one finding per file. */
export const SAMPLE_FINDINGS: Record<string, { line: number; severity: string; finding: string; fix: string }> = {
  'inventory.py': {
    line: 8,
    severity: 'Blocking',
    finding: '`average_price([])` divides by zero',
    fix: 'return 0 (or raise a ValueError naming the problem) when `items` is empty',
  },
  'users.py': {
    line: 6,
    severity: 'Blocking',
    finding: 'SQL injection: `name` is formatted into the query',
    fix: 'pass it as a parameter: `execute("... WHERE name = ?", (name,))`',
  },
  'files.py': {
    line: 9,
    severity: 'Should fix',
    finding: 'path traversal (`../`) out of INVOICES, and the file handle is never closed',
    fix: 'resolve the path and check it stays under INVOICES; read inside `with open(path) as handle:`',
  },
};

/** The prompt the lead gives the reviewer of one file (the reviewer sees nothing else of the run). */
export function reviewerPrompt(file: string): string {
  return (
    `Review the file ${file} of this folder for correctness, security and readability. ` +
    'Read it first. Answer only with findings, one per line, as: `file:line | severity | finding | suggested fix` ' +
    '(severity Blocking, Should fix or Nit).'
  );
}

const usage = (input: number, output: number) => ({ input, output });

/**
 * The model's part when no API key is set, played by the testkit over the Anthropic protocol: the
 * lead loads the code-review skill and lists the files, starts one background reviewer per file,
 * waits for all of them, and writes the table. Each reviewer really reads its file with the
 * sandboxed `read` tool; its findings are scripted for the bundled sample.
 */
export function codeReviewScript(files: readonly string[]): MockScript {
  const reviewers: MockRule[] = files.map((file) => {
    const found = SAMPLE_FINDINGS[file];
    const answer = found
      ? `${file}:${found.line} | ${found.severity} | ${found.finding} | ${found.fix}`
      : `${file} | - | not reviewed: the offline model is scripted for the bundled sample only | set ANTHROPIC_API_KEY for a real review`;
    return {
      // A reviewer's requests are the only ones on the reviewer model that carry its prompt.
      match: { model: REVIEWER_MODEL, contains: `Review the file ${file} ` },
      steps: [
        {
          content: [{ type: 'tool_call', name: 'read', input: { file_path: file } }],
          usage: usage(900, 30),
          // A reviewer's first reply takes a few hundred milliseconds, as a real model's does, so the three
          // are visibly running at the same time (the lead starts them within milliseconds of each other).
          chunking: { argumentsDelta: 8, delayMs: 40 },
        },
        { text: answer, usage: usage(1300, 60) },
      ],
    };
  });
  const start: MockBlock[] = files.map((file) => ({
    type: 'tool_call',
    name: 'agent',
    input: { description: `review ${file}`, prompt: reviewerPrompt(file), run_in_background: true },
  }));
  const wait: MockBlock[] = files.map((_, index) => ({
    type: 'tool_call',
    name: 'agent_status',
    // The runner numbers the sub-agents of a run in the order they start: agent-1-1, agent-1-2, ...
    input: { id: `agent-1-${index + 1}`, action: 'wait', timeout_seconds: 60 },
  }));
  const rows = files.map((file) => {
    const found = SAMPLE_FINDINGS[file];
    return found
      ? `| ${file}:${found.line} | ${found.severity} | ${found.finding} | ${found.fix} |`
      : `| ${file} | - | not reviewed: the offline model is scripted for the bundled sample only | set ANTHROPIC_API_KEY for a real review |`;
  });
  return {
    chunking: { textDelta: 24, argumentsDelta: 32, delayMs: 2 },
    rules: reviewers,
    steps: [
      {
        content: [
          { type: 'text', text: 'I will follow the code-review skill and list the files first.' },
          { type: 'tool_call', name: 'skill', input: { name: 'code-review', arguments: 'target=. focus=security' } },
          { type: 'tool_call', name: 'glob', input: { pattern: '**/*.py' } },
        ],
        usage: usage(2400, 60),
      },
      {
        content: [{ type: 'text', text: `${files.length} files: one read-only reviewer each, in parallel.` }, ...start],
        usage: usage(3600, 200),
      },
      { content: wait, usage: usage(4200, 80) },
      {
        text: [
          '## Review of the folder',
          '',
          files.every((file) => SAMPLE_FINDINGS[file] !== undefined)
            ? 'Verdict: needs rework (two blocking findings).'
            : 'Verdict: none (offline run: the scripted model reviews only the bundled sample).',
          '',
          '| where | severity | finding | suggested fix |',
          '| --- | --- | --- | --- |',
          ...rows,
        ].join('\n'),
        usage: usage(5200, 260),
      },
    ],
  };
}
