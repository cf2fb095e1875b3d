import { relative } from 'node:path';
import { type SiteInfo, type Workspace, workspaceSites } from '@boxagnts/workspace';
import type { Command } from 'commander';
import { sitesPort } from '../sites/listen-sites.js';
import { CliError } from './cli-error.js';
import { type CliOutput, type CommonOptions, printJson, withWorkspace } from './cli-workspace.js';

/** The URL a site has when `boxagnts serve` runs with this workspace's config (undefined for port 0). */
export function configuredSiteUrl(workspace: Workspace, name: string): string | undefined {
  const settings = workspace.config.gateway.sites;
  const port = sitesPort(settings, workspace.config.gateway.port);
  return port === 0 ? undefined : `http://${name}.${settings.domain}:${port}/`;
}

function siteJson(workspace: Workspace, site: SiteInfo) {
  return {
    name: site.name,
    url: configuredSiteUrl(workspace, site.name) ?? null,
    folder: relative(workspace.dir, site.folder),
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
    auth: site.authUser === undefined ? null : { user: site.authUser },
    spa: site.spa,
  };
}

function siteLine(workspace: Workspace, site: SiteInfo): string {
  const flags = [...(site.authUser === undefined ? [] : [`login: ${site.authUser}`]), ...(site.spa ? ['spa'] : [])];
  const url = configuredSiteUrl(workspace, site.name) ?? '(served on a free port)';
  return `${site.name}  ${url}  ${relative(workspace.dir, site.folder)}${flags.length === 0 ? '' : `  [${flags.join(', ')}]`}\n`;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new CliError('--password-stdin reads the password from a pipe: echo "$PASSWORD" | boxagnts sites auth ...');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4096) throw new CliError('the password on stdin is over 4096 bytes.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Adds `boxagnts sites [list|create|delete|auth]` to the program. */
export function registerSitesCommand(program: Command, output: CliOutput): void {
  const sites = program
    .command('sites')
    .description('list, create and delete the static sites of a workspace and set their logins');
  const common = (command: Command) =>
    command.option('-d, --dir <dir>', 'the workspace folder', '.').option('--json', 'print JSON for scripts');

  common(
    sites.command('list', { isDefault: true }).description('the sites (folders under gateway.sites.folder), by name'),
  ).action((options: CommonOptions) =>
    withWorkspace(options.dir, async (workspace) => {
      const list = await workspaceSites(workspace).list();
      if (options.json === true)
        return printJson(
          output,
          list.map((site) => siteJson(workspace, site)),
        );
      if (list.length === 0) {
        output.out(
          `no sites yet: create one with "boxagnts sites create <name>", or let an agent write sites/<name>/\n`,
        );
      }
      for (const site of list) output.out(siteLine(workspace, site));
    }),
  );

  common(
    sites
      .command('create')
      .description('create an empty site folder (a DNS label: lowercase letters, digits, "-")')
      .argument('<name>', 'the site name; it is served at http://<name>.<domain>:<port>/')
      .option('--spa', 'answer unknown paths with index.html (a single-page app)'),
  ).action((name: string, options: CommonOptions & { spa?: boolean }) =>
    withWorkspace(options.dir, async (workspace) => {
      const site = await workspaceSites(workspace).create(name, options.spa === true ? { spa: true } : {});
      if (options.json === true) return printJson(output, siteJson(workspace, site));
      output.out(siteLine(workspace, site));
    }),
  );

  common(
    sites
      .command('delete')
      .description('delete a site: its folder with its files, its row and its login')
      .argument('<name>')
      .option('--keep-files', 'keep the folder (it goes on being served)'),
  ).action((name: string, options: CommonOptions & { keepFiles?: boolean }) =>
    withWorkspace(options.dir, async (workspace) => {
      await workspaceSites(workspace).delete(name, { keepFiles: options.keepFiles === true });
      if (options.json === true) return printJson(output, { deleted: name, keptFiles: options.keepFiles === true });
      output.out(`deleted ${name}${options.keepFiles === true ? ' (files kept)' : ''}\n`);
    }),
  );

  common(
    sites
      .command('auth')
      .description('require a basic-auth login for a site (stored as a salted scrypt hash), or remove it')
      .argument('<name>')
      .option('-u, --user <user>', 'the user name')
      .option('--password-stdin', 'read the password from standard input')
      .option('--password-env <variable>', 'read the password from this environment variable')
      .option('--clear', 'remove the login: the site is open again'),
  ).action(
    (
      name: string,
      options: CommonOptions & { user?: string; passwordStdin?: boolean; passwordEnv?: string; clear?: boolean },
    ) =>
      withWorkspace(options.dir, async (workspace) => {
        const manager = workspaceSites(workspace);
        if (options.clear === true) {
          if ((await manager.get(name)) === undefined) {
            throw new CliError(`there is no site "${name}"; run "boxagnts sites list" to see them.`);
          }
          const removed = await manager.clearAuth(name);
          if (options.json === true) return printJson(output, { site: name, cleared: removed });
          output.out(removed ? `${name}: login removed\n` : `${name} had no login\n`);
          return;
        }
        if (options.user === undefined) {
          throw new CliError(
            'give the user with --user <name> and the password with --password-stdin or --password-env <VAR> (or --clear).',
          );
        }
        let password: string | undefined;
        if (options.passwordEnv !== undefined) {
          password = process.env[options.passwordEnv];
          if (password === undefined || password === '') {
            throw new CliError(`the environment variable ${options.passwordEnv} is not set or empty.`);
          }
        } else if (options.passwordStdin === true) password = await readStdin();
        else {
          throw new CliError(
            'give the password with --password-stdin or --password-env <VAR> (never on the command line, where other users can see it).',
          );
        }
        await manager.setAuth(name, options.user, password);
        if (options.json === true) return printJson(output, { site: name, auth: { user: options.user } });
        output.out(`${name}: login required (user ${options.user})\n`);
      }),
  );
}
