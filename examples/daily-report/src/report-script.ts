import type { MockBlock, MockScript } from '@boxagnts/testkit';

/** A file of the folder the report covers: its path in the agent's root and its text. */
export interface InputFile {
  path: string;
  text: string;
}

/** The prompt each morning's run starts with. */
export function reportPrompt(site: string): string {
  return (
    'Read every file under input/ (list them with glob first). Write a short daily report in Markdown: ' +
    'a title with today\'s date, a "What happened" list and an "Open items" list (every TODO and unchecked box, ' +
    `with the file it is in). Save it with the write tool as sites/${site}/index.md, then answer in one line.`
  );
}

/**
 * The open items of the files: TODO lines and unchecked boxes, with their file. ("TODO" here is the report's
 * input, the notes the agent summarises, not unfinished work in this example.)
 */
export function openItems(files: readonly InputFile[]): string[] {
  const items: string[] = [];
  for (const file of files) {
    for (const line of file.text.split('\n')) {
      const todo = /^\s*-\s*TODO:\s*(.+)$/.exec(line)?.[1] ?? /^\s*-\s*\[ \]\s*(.+)$/.exec(line)?.[1];
      if (todo !== undefined) items.push(`${todo.trim()} (${file.path})`);
    }
  }
  return items;
}

/** The Markdown report the testkit's scripted model writes for these files on `date`. */
export function scriptedReport(files: readonly InputFile[], date: string): string {
  const happened = files.flatMap((file) =>
    file.text
      .split('\n')
      .filter((line) => /^\s*-\s/.test(line) && !/TODO:|\[[ x]\]/.test(line))
      .map((line) => `${line.replace(/^\s*-\s*/, '- ').trim()} (${file.path})`),
  );
  return [
    `# Daily report, ${date}`,
    '',
    `${files.length} files read.`,
    '',
    '## What happened',
    '',
    ...(happened.length === 0 ? ['- nothing new'] : happened),
    '',
    '## Open items',
    '',
    ...openItems(files).map((item) => `- [ ] ${item}`),
    '',
  ].join('\n');
}

const usage = (input: number, output: number) => ({ input, output });

/**
 * The testkit plays the model of one run: `glob` over input/, one `read` per file (in one reply, so
 * they run at once), `write` of the report into the site folder, then a one-line answer. The tool
 * calls are real (the sandboxed tools read and write the files); the report text is scripted.
 */
export function reportScript(files: readonly InputFile[], site: string, date: string): MockScript {
  const reads: MockBlock[] = files.map((file) => ({
    type: 'tool_call',
    name: 'read',
    input: { file_path: file.path },
  }));
  return {
    steps: [
      { content: [{ type: 'tool_call', name: 'glob', input: { pattern: 'input/**/*.md' } }], usage: usage(900, 40) },
      { content: reads, usage: usage(1100, 30 * Math.max(1, files.length)) },
      {
        content: [
          {
            type: 'tool_call',
            name: 'write',
            input: { file_path: `sites/${site}/index.md`, content: scriptedReport(files, date) },
          },
        ],
        usage: usage(2400, 400),
      },
      { text: `Published the report for ${date} at sites/${site}/index.md.`, usage: usage(2600, 30) },
    ],
    repeatLast: true,
  };
}
