import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type CronScheduler, type RunningGateway, startGateway } from '@boxagnts/gateway';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { type CronJob, type CronRunEntry, openWorkspace, type Workspace } from '@boxagnts/workspace';
import { type InputFile, reportPrompt, reportScript } from './report-script.js';

/** The job's name in the workspace. */
export const JOB_NAME = 'daily report';

/** Options of {@link startDailyReport}. */
export interface DailyReportOptions {
  /** The workspace folder (created when missing). */
  dir: string;
  /** The folder to report on; copied to the agent's `root/input/` when the gateway starts. */
  folder: string;
  /** The site the report is published as: `root/sites/<site>/index.md`. Default `daily-report`. */
  site?: string;
  /** When: default every morning at 07:00. */
  cron?: string;
  /** Default the machine's time zone. */
  timezone?: string;
  /** Fire once now (and wait for the run to end), besides the schedule. */
  now?: boolean;
  /** Claude instead of the testkit; default: when ANTHROPIC_API_KEY is set. */
  live?: boolean;
  /** API port (0 picks one); the sites listener takes the next one. Default 0. */
  port?: number;
  /** Progress lines. */
  print?: (line: string) => void;
}

/** The running example. */
export interface DailyReport {
  gateway: RunningGateway;
  cron: CronScheduler;
  job: CronJob;
  /** The report file. */
  reportPath: string;
  /** Where the sites listener serves the report. */
  reportUrl: string | undefined;
  /** The log entry of the `now` run. */
  fired: CronRunEntry | undefined;
  close(): Promise<void>;
}

/** The Markdown files under `root/<under>/`, by path (read synchronously: the script must be set before the run's first model call). */
function markdownFiles(root: string, under: string): InputFile[] {
  const files: InputFile[] = [];
  const walk = (folder: string): void => {
    const entries = readdirSync(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md'))
        files.push({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(root, under));
  return files;
}

/** Writes the workspace config: the testkit mock as `anthropic`, or Claude with the key from the environment. */
async function writeConfig(dir: string, mock: MockServer | undefined): Promise<Workspace> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'boxagnts.json'),
    `${JSON.stringify(
      {
        model: 'anthropic/claude-sonnet-4-6',
        // A cron run is non-interactive: the tools it needs are allowed up front, nothing else.
        permissions: { allow: ['read', 'glob', 'grep', 'write'] },
        ...(mock === undefined
          ? {}
          : { providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } } }),
      },
      null,
      2,
    )}\n`,
  );
  const workspace = await openWorkspace(dir);
  if (mock !== undefined) await workspace.secrets.set('anthropic', 'testkit-key');
  return workspace;
}

/** Creates the job, or brings an existing one in line with the options. */
async function upsertJob(workspace: Workspace, options: DailyReportOptions, site: string): Promise<CronJob> {
  const fields = {
    cron: options.cron ?? '0 7 * * *',
    timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    prompt: reportPrompt(site),
    timeoutMs: 300_000,
    budgetUsd: 1,
    // A gateway that was down at 07:00 writes the morning's report when it comes back.
    catchUp: 'run-once' as const,
  };
  const existing = await workspace.store.cron.get(JOB_NAME);
  return existing === undefined
    ? workspace.store.cron.create({ name: JOB_NAME, ...fields })
    : workspace.store.cron.update(existing.id, fields);
}

/**
 * Starts a gateway on the workspace with one cron job: every morning an agent reads the folder and
 * writes a Markdown report into the site folder, which the gateway's sites listener serves at once.
 *
 * @example
 * const report = await startDailyReport({ dir: './workspace', folder: './notes', now: true });
 * console.log(report.reportUrl);
 */
export async function startDailyReport(options: DailyReportOptions): Promise<DailyReport> {
  const print = options.print ?? (() => {});
  const site = options.site ?? 'daily-report';
  const live = options.live ?? (process.env.ANTHROPIC_API_KEY ?? '') !== '';
  const mock = live ? undefined : await startMockServer({ script: { steps: [{ text: 'Nothing to do.' }] } });
  const workspace = await writeConfig(options.dir, mock);
  const input = join(workspace.paths.root, 'input');
  await rm(input, { recursive: true, force: true });
  await cp(options.folder, input, { recursive: true });
  const job = await upsertJob(workspace, options, site);
  const gateway = await startGateway({
    workspace,
    port: options.port ?? 0,
    sandbox: { bash: false, jsExec: false },
    log: (entry) => {
      if (typeof entry.event === 'string' && entry.event.startsWith('cron-')) print(JSON.stringify(entry));
    },
  });
  const cron = gateway.cron as CronScheduler;
  const unsubscribe =
    mock === undefined
      ? () => {}
      : gateway.runs.subscribe((change) => {
          // The testkit plays this run's model over the files as they are now.
          if (change.type !== 'started' || change.record.origin.kind !== 'cron') return;
          const date = new Date().toISOString().slice(0, 10);
          mock.setScript(reportScript(markdownFiles(workspace.paths.root, 'input'), site, date));
        });
  const reportPath = join(workspace.paths.root, 'sites', site, 'index.md');
  const reportUrl =
    gateway.sitesListener === undefined
      ? undefined
      : `${gateway.sitesListener.url.replace('://', `://${site}.`)}/index.md`;
  print(`${live ? 'Claude' : 'testkit'} | job "${JOB_NAME}": ${job.cron} (${job.timezone}) | API ${gateway.url}`);
  let fired: CronRunEntry | undefined;
  if (options.now === true) {
    const started = await cron.runNow(job.id);
    if (started.runId !== undefined) await gateway.runs.wait(started.runId);
    await cron.idle();
    fired = await workspace.store.cron.run(started.id);
  }
  return {
    gateway,
    cron,
    job,
    reportPath,
    reportUrl,
    fired,
    async close() {
      unsubscribe();
      await gateway.close();
      await workspace.close();
      await mock?.close();
    },
  };
}
