import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readConfinedFile } from '@boxagnts/tools';
import {
  AGENTS_MD_FILE_MAX_BYTES,
  BUILTIN_OUTPUT_STYLES,
  type JsonValue,
  OUTPUT_STYLE_MAX_BYTES,
  writeFileAtomic,
} from '@boxagnts/workspace';
import { Hono } from 'hono';
import { z } from 'zod';
import { withConfigLock } from '../cli/config-lock.js';
import { GatewayError } from '../gateway-error.js';
import type { TokenStore } from '../security/token-store.js';
import type {
  AgentsMdJson,
  CreatedTokenJson,
  OutputStyleJson,
  OutputStyleListJson,
  PermissionsJson,
  TokenListJson,
} from './api-types/index.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { readJsonBody } from './read-body.js';
import { settingsCall } from './settings-errors.js';

/** Output style and token names: what the workspace's style loader and the token store accept. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const NAME_MESSAGE = 'must be 1-64 lowercase letters, digits, "_" or "-", starting with a letter or digit';

const rules = z.array(z.string().trim().min(1, 'a rule must not be empty').max(500)).max(1000);
const permissionsPatchSchema = z.strictObject({
  mode: z
    .enum(['plan', 'default', 'accept-edits', 'bypass'], {
      error: 'must be "plan", "default", "accept-edits" or "bypass"',
    })
    .optional(),
  allow: rules.optional(),
  ask: rules.optional(),
  deny: rules.optional(),
});
const agentsMdSchema = z.strictObject({
  content: z.string().refine((text) => Buffer.byteLength(text) <= AGENTS_MD_FILE_MAX_BYTES, {
    message: `must be at most ${AGENTS_MD_FILE_MAX_BYTES} bytes`,
  }),
});
const outputStyleSchema = z.strictObject({
  description: z
    .string()
    .max(500)
    .regex(/^[^\r\n]*$/, 'must be one line')
    .optional(),
  prompt: z
    .string()
    .min(1, 'must not be empty')
    .refine((text) => Buffer.byteLength(text) <= OUTPUT_STYLE_MAX_BYTES - 1024, {
      message: `must be under ${OUTPUT_STYLE_MAX_BYTES - 1024} bytes`,
    }),
});
const createTokenSchema = z.strictObject({ name: z.string().regex(NAME, NAME_MESSAGE) });

function checkName(name: string, what: string): string {
  if (!NAME.test(name)) {
    throw new GatewayError({
      reason: 'invalid-request',
      message: `Invalid ${what} name "${name.slice(0, 80)}": it ${NAME_MESSAGE}.`,
      issues: [{ path: 'name', message: NAME_MESSAGE }],
    });
  }
  return name;
}

/** Makes `folder` and refuses it when its real path leaves the workspace (a link pointing out). */
async function confinedFolder(workspaceDir: string, folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const [real, root] = await Promise.all([realpath(folder), realpath(workspaceDir)]);
  if (real !== root && !real.startsWith(root + sep)) {
    throw new GatewayError({
      reason: 'forbidden',
      message: `${relative(workspaceDir, folder)} leads out of the workspace (a link): make it a plain folder inside it.`,
    });
  }
  return real;
}

/**
 * Settings the dashboard edits, beside the read-only listings of the catalog routes: the permission
 * mode and rules (written into boxagnts.json through the workspace's config API, comments kept, under
 * the same lock as `boxagnts config set`), the workspace's AGENTS.md, its output styles
 * (`output-styles/<name>.md`), and the gateway's bearer tokens (listed by name, a new one shown once).
 * Every write is atomic; no answer holds a secret, a token or a token's hash.
 */
export function settingsRoutes(services: GatewayServices, tokens: TokenStore): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const workspace = () => services.workspace;
  const permissionsView = (): PermissionsJson => {
    const permissions = workspace().config.permissions;
    return {
      mode: permissions.mode,
      allow: [...permissions.allow],
      ask: [...permissions.ask],
      deny: [...permissions.deny],
    };
  };

  app.get('/settings/permissions', (context) => context.json(permissionsView()));
  app.patch('/settings/permissions', async (context) => {
    const patch = await readJsonBody(context, permissionsPatchSchema);
    await settingsCall(() =>
      withConfigLock(workspace().paths.state, () =>
        workspace().updateConfig((draft) => {
          const current = draft.permissions;
          const section: Record<string, JsonValue> =
            typeof current === 'object' && current !== null && !Array.isArray(current) ? current : {};
          for (const [key, value] of Object.entries(patch)) if (value !== undefined) section[key] = value;
          draft.permissions = section;
          return draft;
        }),
      ),
    );
    services.refreshAgents?.();
    return context.json(permissionsView());
  });

  const agentsMdView = async (): Promise<AgentsMdJson> => {
    const { paths } = workspace();
    const base = { path: relative(paths.dir, paths.agentsMd), maxBytes: AGENTS_MD_FILE_MAX_BYTES };
    const read = await readConfinedFile(paths.agentsMd, { within: paths.dir, maxBytes: AGENTS_MD_FILE_MAX_BYTES });
    if (!read.ok) {
      if (read.problem === 'missing') return { ...base, content: '', exists: false };
      throw new GatewayError({ reason: 'forbidden', message: `AGENTS.md cannot be read: ${read.message}.` });
    }
    const info = await stat(read.realPath);
    return { ...base, content: read.text, exists: true, updatedAt: Math.round(info.mtimeMs) };
  };
  app.get('/settings/agents-md', async (context) => context.json(await agentsMdView()));
  app.put('/settings/agents-md', async (context) => {
    const body = await readJsonBody(context, agentsMdSchema);
    const { paths } = workspace();
    await confinedFolder(paths.dir, paths.dir);
    await writeFileAtomic(paths.agentsMd, body.content);
    services.refreshAgents?.();
    return context.json(await agentsMdView());
  });

  const builtinNames = new Set(BUILTIN_OUTPUT_STYLES.map((style) => style.name));
  const stylesView = async (): Promise<OutputStyleListJson> => {
    const selected = workspace().config.outputStyle;
    const styles = await settingsCall(() => workspace().outputStyles());
    return {
      selected,
      styles: styles.map(
        (style): OutputStyleJson => ({
          name: style.name,
          description: style.description,
          prompt: style.prompt,
          builtin: style.source === 'builtin',
          ...(style.source === 'builtin' ? {} : { file: relative(workspace().paths.dir, style.source) }),
          selected: style.name === selected,
        }),
      ),
    };
  };
  const styleFile = (name: string) => join(workspace().paths.outputStyles, `${checkName(name, 'output style')}.md`);
  app.get('/settings/output-styles', async (context) => context.json(await stylesView()));
  app.get('/settings/output-styles/:name', async (context) => {
    const name = checkName(context.req.param('name'), 'output style');
    const style = (await stylesView()).styles.find((candidate) => candidate.name === name);
    if (style === undefined) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No output style "${name}": list them with GET /settings/output-styles.`,
      });
    }
    return context.json(style);
  });
  app.put('/settings/output-styles/:name', async (context) => {
    const file = styleFile(context.req.param('name'));
    const body = await readJsonBody(context, outputStyleSchema);
    const name = context.req.param('name');
    await confinedFolder(workspace().dir, workspace().paths.outputStyles);
    const description = body.description?.trim() ?? '';
    const text = `---\nname: ${name}\n${description === '' ? '' : `description: ${description}\n`}---\n\n${body.prompt.trim()}\n`;
    await writeFileAtomic(file, text);
    services.refreshAgents?.();
    const style = (await stylesView()).styles.find((candidate) => candidate.name === name);
    return context.json(style, 200);
  });
  app.delete('/settings/output-styles/:name', async (context) => {
    const name = context.req.param('name');
    const file = styleFile(name);
    if (workspace().config.outputStyle === name) {
      throw new GatewayError({
        reason: 'conflict',
        message: `"${name}" is the selected output style (outputStyle in boxagnts.json): select another before deleting it.`,
      });
    }
    await confinedFolder(workspace().dir, workspace().paths.outputStyles);
    const exists = await stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!exists) {
      throw new GatewayError({
        reason: builtinNames.has(name) ? 'conflict' : 'not-found',
        message: builtinNames.has(name)
          ? `"${name}" is a built-in style and cannot be deleted (a workspace file of that name would replace it).`
          : `No output style file output-styles/${name}.md.`,
      });
    }
    await rm(file);
    services.refreshAgents?.();
    return context.body(null, 204);
  });

  app.get('/tokens', (context) =>
    context.json<TokenListJson>({
      tokens: tokens.list().map((token) => ({
        name: token.name,
        createdAt: token.createdAt,
        ...(token.revokedAt === undefined ? {} : { revokedAt: token.revokedAt }),
        ...(token.lastUsedAt === undefined ? {} : { lastUsedAt: token.lastUsedAt }),
      })),
    }),
  );
  app.post('/tokens', async (context) => {
    const body = await readJsonBody(context, createTokenSchema);
    const token = tokens.create(body.name);
    const created = tokens.list().findLast((entry) => entry.name === body.name && entry.revokedAt === undefined);
    const answer: CreatedTokenJson = { name: body.name, token, createdAt: created?.createdAt ?? Date.now() };
    // The one answer that holds a token: never cached anywhere on the way.
    return context.json(answer, 201, { 'cache-control': 'no-store' });
  });
  app.delete('/tokens/:name', (context) => {
    const name = checkName(context.req.param('name'), 'token');
    if (!tokens.revoke(name)) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No live token "${name}" (tokens from gateway.tokens in the config are removed there).`,
      });
    }
    return context.body(null, 204);
  });
  return app;
}
