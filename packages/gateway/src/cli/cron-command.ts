import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type CronJob,
  type CronJobChanges,
  type CronJobInput,
  type CronRunEntry,
  type CronStore,
  isCronError,
  type Workspace,
} from '@boxagnts/workspace';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CliError } from './cli-error.js';
import { type CliOutput, type CommonOptions, printJson, withWorkspace } from './cli-workspace.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';
import { printable } from './terminal-text.js';

/** The largest job file `boxagnts cron add --file` reads (1 MiB). */
export const CRON_FILE_MAX_BYTES = 1024 * 1024;

/** The job options `add` and `update` share. */
interface JobOptions extends CommonOptions {
  cron?: string;
  prompt?: string;
  timezone?: string;
  agent?: string;
  model?: string;
  timeout?: number;
  budgetUsd?: number;
  overlap?: 'skip' | 'allow' | 'queue';
  catchUp?: 'skip' | 'run-once';
  description?: string;
  disabled?: boolean;
  enabled?: boolean;
}

function wholeSeconds(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1)
    throw new InvalidArgumentError('must be a whole number of seconds (1 or more).');
  return number;
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a positive number.');
  return number;
}

function count(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || number > 1000)
    throw new InvalidArgumentError('must be a whole number from 1 to 1000.');
  return number;
}

/** Store refusals as one clear CLI line (a CronError already says what to change). */
async function cronCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isCronError(error)) throw new CliError(error.message);
    throw error;
  }
}

async function requireJob(cron: CronStore, idOrName: string): Promise<CronJob> {
  const job = await cronCall(() => cron.get(idOrName));
  if (job === undefined)
    throw new CliError(`there is no cron job ${JSON.stringify(idOrName)}; run "boxagnts cron list" to find it.`);
  return job;
}

function jobLine(job: CronJob, next: number | undefined): string {
  const state = job.enabled ? (next === undefined ? 'enabled' : `next ${new Date(next).toISOString()}`) : 'disabled';
  return `${printable(job.name)}  ${printable(job.cron)} (${job.timezone})  ${state}  ${printable(job.id)}\n`;
}

function entryLine(entry: CronRunEntry): string {
  const parts = [
    new Date(entry.scheduledFor).toISOString(),
    entry.trigger,
    entry.status,
    entry.outcome ?? '',
    entry.costUsd === undefined ? '' : `$${entry.costUsd.toFixed(4)}`,
    entry.sessionId ?? '',
    entry.error === undefined ? '' : printable(entry.error),
  ];
  return `${parts.filter((part) => part !== '').join('  ')}\n`;
}

/** The fields `add`/`update` options set. */
function fieldsOf(options: JobOptions): CronJobChanges {
  return {
    ...(options.cron === undefined ? {} : { cron: options.cron }),
    ...(options.prompt === undefined ? {} : { prompt: options.prompt }),
    ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
    ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
    ...(options.overlap === undefined ? {} : { overlap: options.overlap }),
    ...(options.catchUp === undefined ? {} : { catchUp: options.catchUp }),
    ...(options.description === undefined ? {} : { description: options.description }),
  };
}

/**
 * Jobs of a file: one job object (ours or BoxAgnts'), an array of them, or BoxAgnts'
 * `cron.config.json` (a map of id to job).
 */
async function jobsOfFile(file: string): Promise<CronJobInput[]> {
  const path = resolve(file);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || !found.isFile()) throw new CliError(`cannot read ${path}: not a file.`);
  if (found.size > CRON_FILE_MAX_BYTES)
    throw new CliError(`${path} is ${found.size} bytes; a job file is at most ${CRON_FILE_MAX_BYTES}.`);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${path} is not JSON (${(error as Error).message}).`);
  }
  if (Array.isArray(value)) return value as CronJobInput[];
  if (typeof value === 'object' && value !== null && 'cron' in value) return [value as CronJobInput];
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>).map(([id, job]) => ({
      ...(job as CronJobInput),
      id: (job as { id?: string }).id ?? id,
    }));
  }
  throw new CliError(`${path} holds no job: give a job object, an array of jobs, or BoxAgnts' cron.config.json.`);
}

async function nextOf(cron: CronStore, job: CronJob): Promise<number | undefined> {
  if (!job.enabled) return undefined;
  return (await cron.nextRuns(job.id, 1))[0]?.at;
}

/** `boxagnts cron run <job>`: one occurrence now, in this process; resolves with the exit code. */
async function runJobNow(workspace: Workspace, idOrName: string, output: CliOutput, json: boolean): Promise<number> {
  const job = await requireJob(workspace.store.cron, idOrName);
  // Loaded here, not at the top: the other cron subcommands need only the store, and the bin starts faster.
  const [{ createGateway }, { CronScheduler }] = await Promise.all([
    import('../gateway.js'),
    import('../cron/cron-scheduler.js'),
  ]);
  const gateway = await createGateway({ workspace, host: '127.0.0.1', recover: false, cron: false });
  const scheduler = new CronScheduler({ store: workspace.store.cron, runs: gateway.runs });
  try {
    await scheduler.start({ schedule: false });
    const started = await cronCall(() => scheduler.runNow(job.id));
    if (started.runId !== undefined) await gateway.runs.wait(started.runId);
    await scheduler.idle();
    const entry = (await workspace.store.cron.run(started.id)) ?? started;
    if (json) printJson(output, entry);
    else output.out(entryLine(entry));
    if (entry.status === 'success') return EXIT_CODES.ok;
    return entry.outcome === undefined ? EXIT_CODES.error : exitCodeFor(entry.outcome);
  } finally {
    await scheduler.stop();
    await gateway.close();
  }
}

/** Adds `boxagnts cron list|add|update|enable|disable|remove|next|log|run` to the program. */
export function registerCronCommand(program: Command, output: CliOutput): void {
  const cron = program
    .command('cron')
    .description('scheduled agent jobs: list, add, update, enable, disable, remove, preview, log and run now');
  const common = (command: Command) =>
    command.option('-d, --dir <dir>', 'the workspace folder', '.').option('--json', 'print JSON for scripts');
  const jobOptions = (command: Command) =>
    command
      .option('-c, --cron <expression>', 'when: 5 fields (minute hour day month weekday) or 6 with seconds first')
      .option('-p, --prompt <text>', 'what each run asks the agent')
      .option('--timezone <zone>', 'IANA zone the expression is read in (default UTC)')
      .option('-a, --agent <name>', "the agent (default: the config's defaultAgent)")
      .option('-m, --model <provider/model>', 'the model')
      .option('--timeout <seconds>', 'cancel a run after this long (default 180)', wholeSeconds)
      .option('--budget-usd <usd>', 'stop a run at this cost', positiveNumber)
      .addOption(
        new Option('--overlap <policy>', 'while a run is live: skip (default), allow or queue').choices([
          'skip',
          'allow',
          'queue',
        ]),
      )
      .addOption(
        new Option('--catch-up <policy>', 'after downtime: skip (default) or run-once').choices(['skip', 'run-once']),
      )
      .option('--description <text>', 'a note on the job');

  common(cron.command('list', { isDefault: true }).description('the jobs, by name, with their next run')).action(
    (options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const jobs = await workspace.store.cron.list();
        const withNext = await Promise.all(
          jobs.map(async (job) => ({ job, next: await nextOf(workspace.store.cron, job) })),
        );
        if (options.json === true)
          return printJson(
            output,
            withNext.map(({ job, next }) => ({ ...job, ...(next === undefined ? {} : { nextRunAt: next }) })),
          );
        if (jobs.length === 0) output.out('no cron jobs yet\n');
        for (const { job, next } of withNext) output.out(jobLine(job, next));
      }),
  );

  common(
    jobOptions(
      cron
        .command('add')
        .argument('[name]', 'the job name')
        .option('-f, --file <file>', "jobs from a JSON file: one job, an array, or BoxAgnts' cron.config.json")
        .option('--disabled', 'add it disabled')
        .description('add a job (a gateway started on the workspace picks it up)'),
    ),
  ).action((name: string | undefined, options: JobOptions & { file?: string }) =>
    withWorkspace(options.dir, async (workspace) => {
      let inputs: CronJobInput[];
      if (options.file !== undefined) inputs = await jobsOfFile(options.file);
      else {
        if (name === undefined || options.cron === undefined || options.prompt === undefined)
          throw new CliError('give a name, --cron "<expression>" and --prompt "<text>" (or --file <jobs.json>).');
        inputs = [
          { name, ...fieldsOf(options), ...(options.disabled === true ? { enabled: false } : {}) } as CronJobInput,
        ];
      }
      const created: CronJob[] = [];
      for (const input of inputs) created.push(await cronCall(() => workspace.store.cron.create(input)));
      if (options.json === true) return printJson(output, created.length === 1 ? created[0] : created);
      for (const job of created) output.out(jobLine(job, await nextOf(workspace.store.cron, job)));
    }),
  );

  common(
    jobOptions(cron.command('update').argument('<job>', 'id or name').option('--name <name>', 'rename it')),
  ).action((idOrName: string, options: JobOptions & { name?: string }) =>
    withWorkspace(options.dir, async (workspace) => {
      const job = await requireJob(workspace.store.cron, idOrName);
      const changes = { ...fieldsOf(options), ...(options.name === undefined ? {} : { name: options.name }) };
      if (Object.keys(changes).length === 0) throw new CliError('nothing to change: give an option such as --cron.');
      const updated = await cronCall(() => workspace.store.cron.update(job.id, changes));
      if (options.json === true) return printJson(output, updated);
      output.out(jobLine(updated, await nextOf(workspace.store.cron, updated)));
    }),
  );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    common(cron.command(verb).argument('<job>', 'id or name').description(`${verb} a job`)).action(
      (idOrName: string, options: CommonOptions) =>
        withWorkspace(options.dir, async (workspace) => {
          const job = await requireJob(workspace.store.cron, idOrName);
          const changed = await cronCall(() =>
            enabled ? workspace.store.cron.enable(job.id) : workspace.store.cron.disable(job.id),
          );
          if (options.json === true) return printJson(output, changed);
          output.out(jobLine(changed, await nextOf(workspace.store.cron, changed)));
        }),
    );
  }

  common(cron.command('remove').argument('<job>', 'id or name').description('delete a job and its log')).action(
    (idOrName: string, options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const job = await requireJob(workspace.store.cron, idOrName);
        await cronCall(() => workspace.store.cron.delete(job.id));
        if (options.json === true) return printJson(output, { deleted: job.id });
        output.out(`removed ${printable(job.name)}\n`);
      }),
  );

  common(
    cron
      .command('next')
      .argument('<job-or-expression>', 'a job id or name, or a cron expression to try')
      .option('-n, --count <n>', 'how many (default 5)', count)
      .option('--timezone <zone>', 'for an expression: the zone (default UTC)')
      .description("the next run times, in the job's zone"),
  ).action((target: string, options: CommonOptions & { count?: number; timezone?: string }) =>
    withWorkspace(options.dir, async (workspace) => {
      const job = await cronCall(() => workspace.store.cron.get(target));
      const spec =
        job === undefined
          ? { cron: target, ...(options.timezone === undefined ? {} : { timezone: options.timezone }) }
          : job.id;
      const runs = await cronCall(() => workspace.store.cron.nextRuns(spec, options.count ?? 5));
      if (options.json === true) return printJson(output, runs);
      for (const run of runs) output.out(`${run.local}  (${run.iso})\n`);
    }),
  );

  common(
    cron
      .command('log')
      .argument('<job>', 'id or name')
      .option('-n, --limit <n>', 'at most this many entries (default 20)', count)
      .description('what became of each occurrence, newest first'),
  ).action((idOrName: string, options: CommonOptions & { limit?: number }) =>
    withWorkspace(options.dir, async (workspace) => {
      const job = await requireJob(workspace.store.cron, idOrName);
      const entries = await cronCall(() => workspace.store.cron.runs(job.id, { limit: options.limit ?? 20 }));
      if (options.json === true) return printJson(output, entries);
      if (entries.length === 0) output.out('no runs yet\n');
      for (const entry of entries) output.out(entryLine(entry));
    }),
  );

  common(
    cron
      .command('run')
      .argument('<job>', 'id or name')
      .description('run a job once now, in this process, and print its log entry (exit code as for "run")'),
  ).action(async (idOrName: string, options: CommonOptions) => {
    process.exitCode = await withWorkspace(options.dir, (workspace) =>
      runJobNow(workspace, idOrName, output, options.json === true),
    );
  });
}
