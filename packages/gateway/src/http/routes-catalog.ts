import { findModel, listCatalogueModels } from '@boxagnts/api';
import { loadSkills } from '@boxagnts/tools';
import { Hono } from 'hono';
import { workspaceSkillFolders } from '../agent/skill-folders.js';
import { providerKeyStates } from '../agent/workspace-providers.js';
import type {
  AgentListJson,
  McpServerListJson,
  SkillListJson,
  ToolListJson,
  UsageReportJson,
} from './api-types/index.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { maskConfig } from './mask-config.js';
import { parseWith } from './read-body.js';
import { usageQuerySchema } from './schemas.js';
import { toolOrigin } from './tool-origin.js';

/** Read-only listings: agents, skills, tools, providers (key state), models with prices, usage, config, MCP servers. */
export function catalogRoutes(services: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/agents', (context) => {
    const list: AgentListJson = {
      defaultAgent: services.workspace.config.defaultAgent,
      agents: Object.values(services.workspace.agents),
    };
    return context.json(list);
  });
  app.get('/skills', async (context) => {
    const catalogue = await loadSkills({
      folders: workspaceSkillFolders(services.workspace),
      writableRoot: services.workspace.paths.root,
    });
    const list: SkillListJson = {
      skills: catalogue.skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        whenToUse: skill.whenToUse,
        allowedTools: skill.allowedTools,
        args: skill.args,
      })),
      warnings: catalogue.warnings.map((warning) => ({ message: warning.message })),
    };
    return context.json(list);
  });
  app.get('/tools', async (context) => {
    const agent = await services.agent(context.req.query('agent'));
    const list: ToolListJson = {
      agent: agent.definition.name,
      tools: agent.tools.all().map((tool) => {
        const source = agent.tools.sourceOf(tool.name);
        return {
          name: tool.name,
          description: tool.description,
          permission: tool.permission,
          loaded: agent.tools.isLoaded(tool.name),
          origin: toolOrigin(source),
          source: source?.name ?? 'unknown',
        };
      }),
    };
    return context.json(list);
  });
  app.get('/providers', async (context) => context.json({ providers: providerKeyStates(await services.registry()) }));
  app.get('/models', async (context) => {
    const registry = await services.registry();
    const provider = context.req.query('provider');
    const ids =
      provider === undefined
        ? registry
            .list()
            .filter((row) => row.configured)
            .map((row) => row.id)
        : [provider];
    const models = ids.flatMap((id) =>
      listCatalogueModels(id).map((model) => ({
        id: `${id}/${model.id}`,
        provider: id,
        name: model.name,
        contextWindow: model.contextWindow,
        maxOutput: model.maxOutput,
        price: model.price,
        reasoning: model.reasoning,
        toolCall: model.toolCall,
      })),
    );
    const configured = services.workspace.config.model;
    const defaultModel = findModel(configured.split('/').slice(1).join('/') || configured);
    return context.json({ defaultModel: configured, defaultPrice: defaultModel?.price, models });
  });
  app.get('/usage', async (context) => {
    const query = parseWith(usageQuerySchema, context.req.query(), 'query');
    const range = {
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.until === undefined ? {} : { until: query.until }),
    };
    return context.json<UsageReportJson>({
      groupBy: query.groupBy,
      rows: await services.workspace.store.usage.report(query.groupBy, range),
    });
  });
  app.get('/config', (context) => context.json({ config: maskConfig(services.workspace.config) }));
  app.get('/mcp-servers', async (context) => {
    const agent = await services.agent();
    return context.json<McpServerListJson>({ servers: agent.mcpServers.map((server) => server.status()) });
  });
  return app;
}
