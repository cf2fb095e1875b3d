import { BUILTIN_AGENTS } from '@boxagnts/query';
import { z } from 'zod';
import {
  agentsSchema,
  cronSchema,
  gatewaySchema,
  hooksSchema,
  managedAgentsSchema,
  mcpServersSchema,
  modelReferenceSchema,
  modelsSchema,
  networkSchema,
  permissionsSchema,
  providersSchema,
  skillsSchema,
  storeSchema,
} from './config-sections.js';

/**
 * The schema of `boxagnts.json`. Strict: an unknown key is an error (with a hint), and agents that are
 * not built in must say what they are for and what they may touch.
 */
export const configSchema = z
  .strictObject({
    /** For editors; ignored. */
    $schema: z.string().optional(),
    providers: providersSchema.optional(),
    /** The default model, `provider/model`. */
    model: modelReferenceSchema.optional(),
    models: modelsSchema.optional(),
    agents: agentsSchema.optional(),
    /** The agent a new session uses. */
    defaultAgent: z.string().optional(),
    managedAgents: managedAgentsSchema.optional(),
    permissions: permissionsSchema.optional(),
    network: networkSchema.optional(),
    mcpServers: mcpServersSchema.optional(),
    skills: skillsSchema.optional(),
    hooks: hooksSchema.optional(),
    outputStyle: z.string().trim().min(1).optional(),
    gateway: gatewaySchema.optional(),
    cron: cronSchema.optional(),
    store: storeSchema.optional(),
  })
  .superRefine((config, context) => {
    for (const [name, agent] of Object.entries(config.agents ?? {})) {
      if (name in BUILTIN_AGENTS) continue;
      if (agent.description === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['agents', name, 'description'],
          message: 'is required for an agent that is not built in: say what the agent is for',
        });
      }
      if (agent.access === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['agents', name, 'access'],
          message: 'is required for an agent that is not built in: one of full, read-only, search-only',
        });
      }
    }
    const agentNames = new Set([...Object.keys(BUILTIN_AGENTS), ...Object.keys(config.agents ?? {})]);
    if (config.defaultAgent !== undefined && !agentNames.has(config.defaultAgent)) {
      context.addIssue({
        code: 'custom',
        path: ['defaultAgent'],
        message: `must name an agent: one of ${[...agentNames].join(', ')}`,
      });
    }
  });

/** The config file as written (every field optional), after `${env:NAME}` substitution. */
export type BoxagntsConfig = z.output<typeof configSchema>;
