import { lstat, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { ResolvedConfig } from '../config/config-defaults.js';
import { ConfigError, isConfigError } from '../config/config-error.js';
import { DEFAULT_CONFIG_TEXT } from '../config/default-config-text.js';
import { parseJsoncObject } from '../config/jsonc-document.js';
import { editJsonc } from '../config/jsonc-edit.js';
import { parseConfigText } from '../config/load-config.js';
import { SecretStore } from '../config/secret-store.js';
import { detectFormatting, diffConfig, type JsonValue } from '../config/update-config.js';
import { validateJobInput } from '../cron/cron-job-input.js';
import { parseCronSchedule } from '../cron/cron-schedule.js';
import type { CronJobInput } from '../cron/cron-types.js';
import { verifySiteCredentials } from '../sites/site-auth.js';
import { isSiteName } from '../sites/site-name.js';
import { workspaceSites } from '../sites/workspace-sites.js';
import type { StoreConfig, WorkspaceStore } from '../store/store-types.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import type { WorkspaceLogger } from '../workspace/workspace-logger.js';
import { workspacePaths } from '../workspace/workspace-paths.js';
import { boxAgntsStateFiles } from './boxagnts-workspace-error.js';
import { convertBoxAgntsSession, rfc3339ToMillis } from './convert-session.js';
import { type ImportedSecret, mapBoxAgntsProviderId, mapModelReference, planSettings } from './convert-settings.js';
import { copyTreeStaged, listTree, SITE_COPY_LIMITS, SKILL_COPY_LIMITS, sameTree } from './copy-tree.js';
import { outputStyleFile } from './output-style-file.js';
import { isRecord, readSourceFile, readSourceJson, safeEntries } from './read-source.js';
import { sessionJsonl } from './session-import-text.js';

/** Options of {@link importBoxAgntsWorkspace}. */
export interface ImportBoxAgntsOptions {
  /** The workspace to import into; default the BoxAgnts folder itself (our files go beside BoxAgnts'). */
  into?: string;
  /** List what would change and touch nothing. */
  dryRun?: boolean;
  /** The environment for `${env:NAME}` of the target config; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Passed to `openWorkspace`. */
  logger?: WorkspaceLogger;
  /** Passed to `openWorkspace` (e.g. a store of your own). */
  openStore?: (config: StoreConfig) => Promise<WorkspaceStore>;
}

/** What part of the workspace an item of the report is. */
export type ImportItemKind = 'config' | 'secret' | 'agents-md' | 'output-style' | 'skill' | 'session' | 'cron' | 'site';
/** What became (or, in a dry run, would become) of it. */
export type ImportAction = 'create' | 'update' | 'unchanged' | 'skipped' | 'failed';

/** One thing the import looked at. */
export interface ImportItem {
  kind: ImportItemKind;
  /** The session id, skill, secret, job, site or config field. */
  name: string;
  action: ImportAction;
  /** Why, for skipped and failed items, and what changed for the others. */
  detail?: string;
}

/** What {@link importBoxAgntsWorkspace} did, or would do in a dry run. */
export interface BoxAgntsImportReport {
  source: string;
  target: string;
  dryRun: boolean;
  items: ImportItem[];
  /** The items that failed (the rest of the import went on; run it again once fixed). */
  failed: ImportItem[];
  /** What was mapped loosely or left out. */
  notes: string[];
  /** Environment variables the imported config refers to that are not set now: set them before opening. */
  missingVariables: string[];
  ok: boolean;
}

const PLACEHOLDER = 'boxagnts-import-placeholder';
const AGENTS_MD_MARK = '<!-- Imported from BoxAgnts (.boxagnts/AGENTS.md) -->';
const APPEND_MARK = '<!-- Imported from BoxAgnts (append_system_prompt) -->';
const SKILL_FOLDER = /^[a-z0-9][a-z0-9._-]{0,63}$/;

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

/** A secret value as written by BoxAgnts' `auth.json` (`{credentials: {id: {type, key | access, refresh, expires}}}`). */
function authSecrets(auth: unknown, notes: string[]): ImportedSecret[] {
  const credentials = isRecord(auth) && isRecord(auth.credentials) ? auth.credentials : isRecord(auth) ? auth : {};
  const secrets: ImportedSecret[] = [];
  for (const [id, credential] of safeEntries(credentials)) {
    if (!isRecord(credential)) continue;
    const mapped = mapBoxAgntsProviderId(id);
    const name = mapped?.id ?? id;
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,57}$/.test(name)) {
      notes.push(`auth.json: the credential of ${JSON.stringify(id.slice(0, 64))} has no usable name: left out`);
      continue;
    }
    if (mapped === undefined)
      notes.push(`auth.json: provider ${id} is unknown here; its key is kept as secret "${name}"`);
    if (credential.type === 'api' && typeof credential.key === 'string' && credential.key !== '') {
      secrets.push({ name, value: credential.key, from: `auth.json ${id}` });
    } else if (credential.type === 'oauth') {
      const { access, refresh, expires } = credential;
      if (typeof access !== 'string' && typeof refresh !== 'string') continue;
      secrets.push({
        name: `${name}-oauth`,
        value: JSON.stringify({ access, refresh, expires }),
        from: `auth.json ${id} (OAuth)`,
      });
      // BoxAgnts sends GitHub Copilot's refresh (else access) token as its key.
      const key = id === 'github-copilot' ? refresh || access : undefined;
      if (typeof key === 'string' && key !== '')
        secrets.push({ name, value: key, from: `auth.json ${id} (OAuth token)` });
    }
  }
  return secrets;
}

/** The source folder of a BoxAgnts site (`root/<path>`), refused when it leaves root or passes a link. */
async function siteSource(sourceRoot: string, path: unknown): Promise<string | { problem: string }> {
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) return { problem: 'has no path' };
  const parts = path.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (isAbsolute(path) || parts.includes('..'))
    return { problem: `path ${JSON.stringify(path.slice(0, 100))} leaves root/` };
  let current = sourceRoot;
  for (const part of parts) {
    current = join(current, part);
    const stat = await lstat(current).catch(() => undefined);
    if (stat === undefined) return { problem: `folder root/${parts.join('/')} is missing` };
    if (stat.isSymbolicLink())
      return { problem: `root/${parts.join('/')} passes a symbolic link, which the import does not follow` };
    if (!stat.isDirectory()) return { problem: `root/${parts.join('/')} is not a folder` };
  }
  return current;
}

const CRON_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One line of BoxAgnts' `cron-logs/<job>.jsonl`: `{id, job_id, job_name, executed_at, success, message}`. */
interface CronLogEntry {
  at: number;
  success: boolean;
  message: string;
}

/** The entries of a job's log (at most 10,000, one per instant), or why it cannot be read; undefined when there is none. */
async function cronLog(path: string): Promise<CronLogEntry[] | string | undefined> {
  const read = await readSourceFile(path, 16 * 1024 * 1024);
  if (!read.ok) return read.problem === 'is missing' ? undefined : read.problem;
  const entries = new Map<number, CronLogEntry>();
  for (const line of read.value.split('\n')) {
    if (line.trim() === '' || entries.size >= 10_000) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(value)) continue;
    const at = rfc3339ToMillis(value.executed_at);
    if (at === undefined) continue;
    entries.set(at, { at, success: value.success === true, message: String(value.message ?? '').slice(0, 10_000) });
  }
  return [...entries.values()];
}

interface Task {
  kind: ImportItemKind;
  name: string;
  /** What would happen; `apply` runs only for create and update. */
  check(workspace: Workspace | undefined): Promise<{ action: ImportAction; detail?: string }>;
  apply(workspace: Workspace): Promise<void>;
}

/**
 * Imports a workspace of the Rust BoxAgnts (`<dir>/.boxagnts/settings.json`, `auth.json`,
 * `AGENTS.md`, `sessions/*.json`, `cron.config.json`, `site.config.json`, and
 * `<dir>/extensions/skills/`) into a workspace of this package: the config (model, providers with
 * their ids mapped, MCP servers, outbound hosts, output style, system prompt overrides), keys into
 * the secrets file (never the config), AGENTS.md, skills, sessions (searchable afterwards), cron
 * jobs and sites. A second import changes nothing; a dry run lists what would change and touches
 * nothing. Each item is written whole or not at all (a transaction, an atomic file, a staged folder),
 * so a failure leaves the target consistent; the report says what failed.
 *
 * @example
 * const report = await importBoxAgntsWorkspace('./my-boxagnts-workspace', { dryRun: true });
 * for (const item of report.items) console.log(item.action, item.kind, item.name);
 */
export async function importBoxAgntsWorkspace(
  dir: string,
  options: ImportBoxAgntsOptions = {},
): Promise<BoxAgntsImportReport> {
  let source = resolve(dir);
  if (basename(source) === '.boxagnts' && (await boxAgntsStateFiles(dirname(source))).length > 0)
    source = dirname(source);
  const found = await boxAgntsStateFiles(source);
  if (found.length === 0) {
    throw new ConfigError({
      reason: 'io',
      file: join(source, '.boxagnts', 'settings.json'),
      detail: `no BoxAgnts workspace here: none of .boxagnts/settings.json, auth.json, sessions/, cron.config.json or site.config.json exists. Pass the folder that holds BoxAgnts' .boxagnts/.`,
    });
  }
  const state = join(source, '.boxagnts');
  const target = resolve(options.into ?? source);
  const paths = workspacePaths(target);
  const env = options.env ?? process.env;
  const dryRun = options.dryRun === true;
  const items: ImportItem[] = [];
  const notes: string[] = [];
  const report = (missingVariables: string[]): BoxAgntsImportReport => {
    const failed = items.filter((item) => item.action === 'failed');
    return { source, target, dryRun, items, failed, notes, missingVariables, ok: failed.length === 0 };
  };

  if (target !== source && (await exists(join(state, 'codex_tokens.json')))) {
    notes.push(
      `.boxagnts/codex_tokens.json is not copied: the codex provider reads it from ${state} (pass tokenDir), or copy it to ${join(paths.state, 'codex_tokens.json')}`,
    );
  }

  // --- settings.json -> boxagnts.json (validated in full before anything is written) ---
  const settingsFile = join(state, 'settings.json');
  let settingsValue: unknown = {};
  if (await exists(settingsFile)) {
    const read = await readSourceJson(settingsFile);
    if (read.ok) settingsValue = read.value;
    else
      items.push({
        kind: 'config',
        name: 'settings.json',
        action: 'failed',
        detail: `.boxagnts/settings.json ${read.problem}`,
      });
  }
  const plan = planSettings(settingsValue);
  notes.push(...plan.notes);
  const missingVariables = plan.variables.filter((name) => !env[name]);
  const validationEnv = { ...env, ...Object.fromEntries(missingVariables.map((name) => [name, PLACEHOLDER])) };

  // The output style: ours when built in, else a file written beside the config (before it).
  const tasks: Task[] = [];
  let styleAvailable = plan.outputStyle === undefined;
  if (plan.outputStyle !== undefined) {
    const style = await outputStyleFile(state, plan.outputStyle);
    if (typeof style === 'string') notes.push(`output style ${plan.outputStyle}: ${style}; the default style is kept`);
    else {
      styleAvailable = true;
      const file = join(paths.outputStyles, `${plan.outputStyle}.md`);
      tasks.push({
        kind: 'output-style',
        name: plan.outputStyle,
        async check() {
          const current = await readSourceFile(file);
          if (!current.ok) return { action: 'create' };
          return current.value === style.text
            ? { action: 'unchanged' }
            : { action: 'skipped', detail: `output-styles/${plan.outputStyle}.md exists with other text: kept` };
        },
        async apply() {
          await mkdir(paths.outputStyles, { recursive: true });
          await writeFileAtomic(file, style.text);
        },
      });
    }
  }

  const configExists = await exists(paths.config);
  let configText = DEFAULT_CONFIG_TEXT;
  if (configExists) {
    const current = await readSourceFile(paths.config, 4 * 1024 * 1024);
    if (!current.ok) {
      items.push({
        kind: 'config',
        name: 'boxagnts.json',
        action: 'failed',
        detail: `${paths.config} ${current.problem}`,
      });
      return report(missingVariables);
    }
    configText = current.value;
  }
  let newConfigText = configText;
  let resolved: ResolvedConfig;
  const configChanges: string[] = [];
  try {
    const before = parseJsoncObject(configText, paths.config) as Record<string, JsonValue>;
    const formatting = detectFormatting(configText);
    const textOf = (draft: Record<string, JsonValue>) => {
      let text = configText;
      for (const [fieldPath, value] of diffConfig(before, draft)) text = editJsonc(text, fieldPath, value, formatting);
      return text;
    };
    // The target's own config must be valid before anything is added to it.
    parseConfigText(configText, paths.config, { env: validationEnv, baseDir: paths.dir });
    // Each setting alone: one the config refuses is left out (and noted), the others still come over.
    let draft = structuredClone(before);
    for (const edit of plan.edits) {
      if (edit.label === 'output_style' && !styleAvailable) continue;
      const next = structuredClone(draft);
      edit.apply(next);
      try {
        parseConfigText(textOf(next), paths.config, { env: validationEnv, baseDir: paths.dir });
        draft = next;
      } catch (error) {
        notes.push(`${edit.label} left out: ${isConfigError(error) ? error.message : String(error)}`);
      }
    }
    newConfigText = textOf(draft);
    for (const [fieldPath] of diffConfig(before, draft)) configChanges.push(fieldPath.join('.'));
    resolved = parseConfigText(newConfigText, paths.config, { env: validationEnv, baseDir: paths.dir });
  } catch (error) {
    items.push({
      kind: 'config',
      name: 'boxagnts.json',
      action: 'failed',
      detail: `${isConfigError(error) ? error.message : String(error)}; nothing was imported`,
    });
    return report(missingVariables);
  }
  const configAction: ImportAction = !configExists ? 'create' : newConfigText === configText ? 'unchanged' : 'update';
  items.push({
    kind: 'config',
    name: 'boxagnts.json',
    action: configAction,
    ...(configChanges.length === 0 ? {} : { detail: `sets ${configChanges.join(', ')}` }),
  });

  // --- auth.json and credentials of MCP servers -> the secrets file ---
  const secrets: ImportedSecret[] = [...plan.secrets];
  const authFile = join(state, 'auth.json');
  if (await exists(authFile)) {
    const auth = await readSourceJson(authFile, 4 * 1024 * 1024);
    if (auth.ok) secrets.push(...authSecrets(auth.value, notes));
    else
      items.push({
        kind: 'secret',
        name: 'auth.json',
        action: 'failed',
        detail: `.boxagnts/auth.json ${auth.problem}`,
      });
  }
  let dryRunSecrets: SecretStore | undefined;
  const secretStore = async (workspace: Workspace | undefined) => {
    if (workspace !== undefined) return workspace.secrets;
    if (dryRunSecrets === undefined && (await exists(paths.secrets))) {
      dryRunSecrets = await SecretStore.open(paths.secrets, { create: false, fixPermissions: false });
    }
    return dryRunSecrets;
  };
  for (const secret of secrets) {
    tasks.push({
      kind: 'secret',
      name: secret.name,
      async check(workspace) {
        const current = await (await secretStore(workspace))?.get(secret.name);
        if (current === undefined) return { action: 'create', detail: `from ${secret.from}` };
        return current.reveal() === secret.value
          ? { action: 'unchanged' }
          : {
              action: 'skipped',
              detail: `the secrets file has another value for "${secret.name}": kept it (delete it to take BoxAgnts')`,
            };
      },
      async apply(workspace) {
        await workspace.secrets.set(secret.name, secret.value);
      },
    });
  }

  // --- AGENTS.md and append_system_prompt ---
  const agentsSource = await readSourceFile(join(state, 'AGENTS.md'), 1024 * 1024);
  const blocks: string[] = [];
  if (agentsSource.ok && agentsSource.value.trim() !== '')
    blocks.push(`${AGENTS_MD_MARK}\n${agentsSource.value.trim()}\n`);
  else if (!agentsSource.ok && agentsSource.problem !== 'is missing')
    notes.push(`.boxagnts/AGENTS.md ${agentsSource.problem}: left out`);
  if (plan.appendSystemPrompt !== undefined) blocks.push(`${APPEND_MARK}\n${plan.appendSystemPrompt.trim()}\n`);
  if (blocks.length > 0) {
    const merged = async () => {
      const current = await readSourceFile(paths.agentsMd, 1024 * 1024);
      const text = current.ok ? current.value : '';
      const missing = blocks.filter((block) => !text.includes(block.trim()));
      return { text, missing };
    };
    tasks.push({
      kind: 'agents-md',
      name: 'AGENTS.md',
      async check() {
        const { missing, text } = await merged();
        if (missing.length === 0) return { action: 'unchanged' };
        // A new workspace's AGENTS.md holds only a comment: filling it is creating it.
        return { action: text.replace(/<!--[\s\S]*?-->/g, '').trim() === '' ? 'create' : 'update' };
      },
      async apply() {
        const { text, missing } = await merged();
        const base = text.trimEnd();
        await writeFileAtomic(paths.agentsMd, `${base === '' ? '' : `${base}\n\n`}${missing.join('\n')}`);
      },
    });
  }

  // --- skills: <dir>/extensions/skills/<name>/ -> skills/<name>/ ---
  const skillsSource = join(source, 'extensions', 'skills');
  const skillsStat = await lstat(skillsSource).catch(() => undefined);
  if (skillsStat?.isSymbolicLink()) notes.push('extensions/skills is a symbolic link: no skill was imported');
  else if (skillsStat?.isDirectory()) {
    // The first skill folder of the config inside the workspace (a shared folder elsewhere is not the import's to fill).
    const skillsTarget =
      resolved.skills.folders.find((folder) => resolve(folder).startsWith(`${paths.dir}${sep}`)) ?? paths.skills;
    for (const entry of (await readdir(skillsSource, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const name = entry.name;
      if (entry.isSymbolicLink()) {
        items.push({ kind: 'skill', name, action: 'skipped', detail: 'a symbolic link: not followed' });
        continue;
      }
      if (!entry.isDirectory()) continue;
      if (!SKILL_FOLDER.test(name)) {
        items.push({
          kind: 'skill',
          name: name.slice(0, 64),
          action: 'skipped',
          detail: 'not a skill name (lowercase letters, digits, ".", "_", "-")',
        });
        continue;
      }
      const from = join(skillsSource, name);
      const to = join(skillsTarget, name);
      const skillFile = await lstat(join(from, 'SKILL.md')).catch(() => undefined);
      if (skillFile?.isFile() !== true) {
        items.push({ kind: 'skill', name, action: 'skipped', detail: 'has no SKILL.md (a regular file)' });
        continue;
      }
      const listing = await listTree(from, SKILL_COPY_LIMITS);
      if (typeof listing === 'string') {
        items.push({ kind: 'skill', name, action: 'failed', detail: `extensions/skills/${name} ${listing}` });
        continue;
      }
      if (listing.skipped.length > 0) notes.push(`skill ${name}: left out ${listing.skipped.join(', ')}`);
      tasks.push({
        kind: 'skill',
        name,
        async check() {
          if (resolve(from) === resolve(to)) return { action: 'unchanged' };
          if (!(await exists(to))) return { action: 'create' };
          return (await sameTree(from, listing, to))
            ? { action: 'unchanged' }
            : { action: 'skipped', detail: `${to} exists with other files: kept` };
        },
        async apply() {
          await copyTreeStaged(from, listing, to, skillsTarget);
        },
      });
    }
  }

  // --- sessions/*.json -> the store (one transaction each) ---
  const sessionsDir = join(state, 'sessions');
  const sessionsStat = await lstat(sessionsDir).catch(() => undefined);
  if (sessionsStat?.isSymbolicLink()) notes.push('.boxagnts/sessions is a symbolic link: no session was imported');
  else if (sessionsStat?.isDirectory()) {
    const files = (await readdir(sessionsDir)).filter((name) => name.endsWith('.json')).sort();
    const sessionTasks: { task: Task; parent: string | undefined; id: string }[] = [];
    for (const file of files) {
      const fileId = file.slice(0, -'.json'.length);
      const read = await readSourceJson(join(sessionsDir, file));
      const converted = read.ok ? convertBoxAgntsSession(read.value, fileId) : read;
      if (!converted.ok) {
        items.push({
          kind: 'session',
          name: file.slice(0, 140),
          action: 'failed',
          detail: `sessions/${file.slice(0, 140)} ${converted.problem}`,
        });
        continue;
      }
      const session = converted.value;
      for (const note of session.notes) notes.push(`session ${session.id}: ${note}`);
      sessionTasks.push({
        id: session.id,
        parent: session.parentSessionId,
        task: {
          kind: 'session',
          name: session.id,
          async check(workspace) {
            const existing = await workspace?.store.sessions.get(session.id);
            if (existing === undefined) return { action: 'create', detail: `${session.entries.length} messages` };
            if (existing.messageCount >= session.entries.length) return { action: 'unchanged' };
            return { action: 'update', detail: `${session.entries.length - existing.messageCount} new messages` };
          },
          async apply(workspace) {
            const existing = await workspace.store.sessions.get(session.id);
            if (existing === undefined) await workspace.store.sessions.importJsonl(sessionJsonl(session));
            else await workspace.store.sessions.append(session.id, session.entries.slice(existing.messageCount));
          },
        },
      });
    }
    // Parents before their forks, so that a fork keeps its link (the store keeps one only to a session it has).
    const byId = new Map(sessionTasks.map((entry) => [entry.id, entry]));
    const done = new Set<string>();
    const ordered: Task[] = [];
    const visit = (entry: (typeof sessionTasks)[number], depth: number) => {
      if (done.has(entry.id)) return;
      done.add(entry.id);
      const parent = entry.parent === undefined || depth >= 100 ? undefined : byId.get(entry.parent);
      if (parent !== undefined) visit(parent, depth + 1);
      ordered.push(entry.task);
    };
    for (const entry of sessionTasks) visit(entry, 0);
    tasks.push(...ordered);
  }

  // --- cron.config.json -> store.cron ---
  const cronFile = join(state, 'cron.config.json');
  if (await exists(cronFile)) {
    const read = await readSourceJson(cronFile, 8 * 1024 * 1024);
    if (!read.ok)
      items.push({
        kind: 'cron',
        name: 'cron.config.json',
        action: 'failed',
        detail: `.boxagnts/cron.config.json ${read.problem}`,
      });
    else if (isRecord(read.value)) {
      for (const [key, job] of safeEntries(read.value)) {
        if (!isRecord(job)) continue;
        const id = typeof job.id === 'string' && job.id !== '' ? job.id : key;
        const input = {
          id,
          name: job.name,
          ...(typeof job.description === 'string' ? { description: job.description } : {}),
          cron: job.cron,
          prompt: job.prompt,
          ...(typeof job.model === 'string' && job.model !== '' ? { model: mapModelReference(job.model) } : {}),
          ...(typeof job.timeout === 'number' ? { timeout: job.timeout } : {}),
          ...(typeof job.enabled === 'boolean' ? { enabled: job.enabled } : {}),
        } as CronJobInput;
        tasks.push({
          kind: 'cron',
          name: id.slice(0, 128),
          async check(workspace) {
            const valid = validateJobInput(input);
            parseCronSchedule(valid.cron, valid.timezone);
            const existing = await workspace?.store.cron.get(id);
            return existing?.id === id
              ? { action: 'unchanged' }
              : { action: 'create', detail: `${valid.name}: ${valid.cron}` };
          },
          async apply(workspace) {
            await workspace.store.cron.create(input);
          },
        });
        const log = CRON_ID.test(id) ? await cronLog(join(state, 'cron-logs', `${id}.jsonl`)) : undefined;
        if (typeof log === 'string') notes.push(`cron-logs/${id}.jsonl ${log}: its log was left out`);
        else if (log !== undefined && log.length > 0) {
          const missing = async (workspace: Workspace | undefined) => {
            if (workspace === undefined || (await workspace.store.cron.get(id))?.id !== id) return log;
            const known = new Set(
              (await workspace.store.cron.runs(id, { limit: 1000 })).map((run) => run.scheduledFor),
            );
            return log.filter((entry) => !known.has(entry.at));
          };
          tasks.push({
            kind: 'cron',
            name: `${id.slice(0, 128)} log`,
            async check(workspace) {
              const count = (await missing(workspace)).length;
              return count === 0
                ? { action: 'unchanged' }
                : { action: 'create', detail: `${count} runs of cron-logs/${id}.jsonl` };
            },
            async apply(workspace) {
              // One log row per occurrence: claiming an instant twice changes nothing, so a second import adds no row.
              for (const entry of await missing(workspace)) {
                const claimed = await workspace.store.cron.claim(id, entry.at, {
                  trigger: 'schedule',
                  status: entry.success ? 'success' : 'failed',
                  startedAt: entry.at,
                  ...(entry.success ? {} : { error: entry.message }),
                });
                if (claimed !== undefined) {
                  await workspace.store.cron.updateRun(claimed.id, {
                    finishedAt: entry.at,
                    outcome: entry.success ? 'end_turn' : 'error',
                  });
                }
              }
            },
          });
        }
      }
    }
  }

  // --- site.config.json -> the sites folder, store.sites and the secrets file ---
  const siteFile = join(state, 'site.config.json');
  if (await exists(siteFile)) {
    const read = await readSourceJson(siteFile, 8 * 1024 * 1024);
    if (!read.ok)
      items.push({
        kind: 'site',
        name: 'site.config.json',
        action: 'failed',
        detail: `.boxagnts/site.config.json ${read.problem}`,
      });
    else if (isRecord(read.value)) {
      const sourceRoot = join(source, 'root');
      for (const [key, site] of safeEntries(read.value)) {
        if (!isRecord(site)) continue;
        const raw = typeof site.name === 'string' ? site.name : key;
        const name = raw.trim().toLowerCase();
        if (!isSiteName(name)) {
          items.push({
            kind: 'site',
            name: raw.slice(0, 64),
            action: 'skipped',
            detail: 'not a site name here (one DNS label: lowercase letters, digits, "-")',
          });
          continue;
        }
        if (site.enabled === false) {
          items.push({
            kind: 'site',
            name,
            action: 'skipped',
            detail: 'disabled in BoxAgnts (every site folder is served here)',
          });
          continue;
        }
        if (
          typeof site.component === 'string' &&
          site.component !== '' &&
          !site.component.startsWith('boxed_static_server')
        ) {
          notes.push(
            `site ${name}: its component ${site.component} is not used; the gateway serves the folder as a static site`,
          );
        }
        const from = await siteSource(sourceRoot, site.path);
        if (typeof from !== 'string') {
          items.push({ kind: 'site', name, action: 'failed', detail: `site.config.json ${name}: ${from.problem}` });
          continue;
        }
        const to = join(resolved.gateway.sites.folder, name);
        const listing = resolve(from) === resolve(to) ? undefined : await listTree(from, SITE_COPY_LIMITS);
        if (typeof listing === 'string') {
          items.push({ kind: 'site', name, action: 'failed', detail: `root/${String(site.path)} ${listing}` });
          continue;
        }
        const login =
          site.enable_auth !== false &&
          typeof site.auth_user === 'string' &&
          typeof site.auth_pass === 'string' &&
          site.auth_user !== ''
            ? { user: site.auth_user, password: site.auth_pass }
            : undefined;
        const loginState = async (workspace: Workspace | undefined) => {
          if (login === undefined || workspace === undefined) return login === undefined ? 'none' : 'set';
          const stored = await workspaceSites(workspace).credentials(name);
          if (stored === undefined || stored === 'invalid') return 'set';
          return (await verifySiteCredentials(stored, login.user, login.password)) ? 'none' : 'set';
        };
        tasks.push({
          kind: 'site',
          name,
          async check(workspace) {
            const recorded = workspace === undefined ? undefined : await workspace.store.sites.get(name);
            const folderThere = await exists(to);
            if (listing !== undefined && folderThere && !(await sameTree(from, listing, to))) {
              return { action: 'skipped', detail: `${to} exists with other files: kept` };
            }
            const setLogin = (await loginState(workspace)) === 'set';
            if (recorded !== undefined && folderThere && !setLogin) return { action: 'unchanged' };
            return {
              action: recorded === undefined ? 'create' : 'update',
              ...(login === undefined
                ? {}
                : { detail: `login ${login.user} (its password only as a hash in the secrets file)` }),
            };
          },
          async apply(workspace) {
            const sites = workspaceSites(workspace);
            if (listing !== undefined && !(await exists(to))) await copyTreeStaged(from, listing, to, dirname(to));
            if ((await workspace.store.sites.get(name)) === undefined) await sites.create(name);
            if ((await loginState(workspace)) === 'set' && login !== undefined)
              await sites.setAuth(name, login.user, login.password);
          },
        });
      }
    }
  }

  // --- run: a dry run only checks; a real run writes the config first, then each item whole ---
  let workspace: Workspace | undefined;
  const openOptions = {
    env: validationEnv,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.openStore === undefined ? {} : { openStore: options.openStore }),
  };
  try {
    // The output style file must exist before a config naming it is opened.
    const styleTasks = tasks.filter((task) => task.kind === 'output-style');
    const otherTasks = tasks.filter((task) => task.kind !== 'output-style');
    if (dryRun) {
      // A store of the caller's or on PostgreSQL is there to compare with; a SQLite one only once its file is.
      const storeThere =
        options.openStore !== undefined || resolved.store.kind === 'postgres' || (await exists(resolved.store.path));
      if (configExists && storeThere) workspace = await openWorkspace(target, { ...openOptions, create: false });
    } else {
      for (const task of styleTasks) await runTask(task, undefined, items);
      if (configAction !== 'unchanged') {
        await mkdir(paths.dir, { recursive: true });
        await writeFileAtomic(paths.config, newConfigText);
      }
      workspace = await openWorkspace(target, openOptions);
    }
    for (const task of dryRun ? tasks : otherTasks) await runTask(task, workspace, items, dryRun);
  } catch (error) {
    items.push({
      kind: 'config',
      name: 'workspace',
      action: 'failed',
      detail: `the workspace could not be opened: ${error instanceof Error ? error.message : String(error)}`,
    });
  } finally {
    await workspace?.close();
  }
  return report(missingVariables);
}

async function runTask(
  task: Task,
  workspace: Workspace | undefined,
  items: ImportItem[],
  dryRun = false,
): Promise<void> {
  try {
    const verdict = await task.check(workspace);
    if (!dryRun && (verdict.action === 'create' || verdict.action === 'update')) {
      if (workspace === undefined && task.kind !== 'output-style') throw new Error('no workspace is open');
      await task.apply(workspace as Workspace);
    }
    items.push({ kind: task.kind, name: task.name, ...verdict });
  } catch (error) {
    items.push({
      kind: task.kind,
      name: task.name,
      action: 'failed',
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}
