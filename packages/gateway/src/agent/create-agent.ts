import { randomUUID } from 'node:crypto';
import type { LlmProvider, Message, ProviderRegistry } from '@boxagnts/api';
import { type PendingMessages, type QueryConfig, type QueryEvent, type QueryOutcome, runQuery } from '@boxagnts/query';
import type { ToolContext } from '@boxagnts/tools';
import type { AskHandler, LoadedPlugin, McpToolSource, ToolSet } from '@boxagnts/tools-manager';
import type { SandboxToolSourceOptions } from '@boxagnts/wasm-tools';
import { openWorkspace, type Workspace, type WorkspaceAgent } from '@boxagnts/workspace';
import { GatewayError } from '../gateway-error.js';
import { loadTelemetry, type TelemetryOption } from '../telemetry/load-telemetry.js';
import { createRunSpans } from '../telemetry/run-spans.js';
import { type AgentInput, inputMessages } from './agent-input.js';
import { readSystemLayers } from './system-layers.js';
import { createUsageRecorder } from './usage-recorder.js';
import { createWorkspaceRegistry } from './workspace-providers.js';
import { createWorkspaceToolSet } from './workspace-tool-set.js';

/** Options of {@link createAgent}. */
export interface CreateAgentOptions {
  /** An open workspace, or its folder (opened, created when missing, and closed by `agent.close()`). */
  workspace: Workspace | string;
  /** The agent's name; default the config's `defaultAgent` (`build`). */
  agent?: string;
  /** `provider/model`; default the agent's model, else the config's `model`. */
  model?: string;
  /** The registry to resolve the model in (plugins applied); default a new one with the built-in providers. */
  registry?: ProviderRegistry;
  /** Tool plugins: package specifiers, paths, or loaded plugins. */
  plugins?: readonly (string | LoadedPlugin)[];
  /** Asked when a permission rule says `ask`; without one such calls are refused with a reason the model reads. */
  ask?: AskHandler;
  /** Sandbox options over the workspace defaults (e.g. `{ bash: false }`). */
  sandbox?: Omit<SandboxToolSourceOptions, 'toolsFolder'>;
  /** Loop settings over the defaults (max turns, budget, timeouts, compaction, ...). */
  config?: Partial<Omit<QueryConfig, 'model' | 'agent'>>;
  /**
   * OpenTelemetry spans of each run (GenAI conventions: `invoke_agent`, `chat`, `execute_tool`).
   * Off by default; `true` uses the globally registered SDK's tracer, or pass `{ tracer }`.
   */
  telemetry?: TelemetryOption;
}

/** Options of one {@link Agent.run}. */
export interface AgentRunOptions {
  /** The session to continue or create; default a new session. */
  sessionId?: string;
  signal?: AbortSignal;
  /** User messages sent while the run works, drained before each model call. */
  pending?: PendingMessages;
  /** Per-run overrides of the loop settings (budget, max turns, ...). */
  config?: Partial<Omit<QueryConfig, 'model' | 'agent'>>;
  /**
   * Asked when a permission rule says `ask`, for this run only; default the agent's `ask` (or none).
   * The agent's tool set is then this run's: do not run the agent twice at once with different ones.
   */
  ask?: AskHandler;
  /** Answers `ask_user_question` for this run; without it the tool says no user is available. */
  askUser?: ToolContext['ask'];
}

/** One run of an {@link Agent}: its events as they happen and its typed outcome. */
export interface AgentRun extends AsyncIterable<QueryEvent> {
  readonly sessionId: string;
  /** The outcome; reading it before iterating runs the events to the end by itself. */
  readonly outcome: Promise<QueryOutcome>;
}

/** A composed agent of a workspace: provider, tools, session store, usage recorder and prompt layers. */
export interface Agent {
  readonly workspace: Workspace;
  /** The agent definition (built-in or configured). */
  readonly definition: WorkspaceAgent;
  /** `provider/model` as resolved. */
  readonly modelReference: string;
  /** The vendor's model id. */
  readonly model: string;
  readonly provider: LlmProvider;
  readonly registry: ProviderRegistry;
  readonly tools: ToolSet;
  /** The configured MCP servers as tool sources (for their status). */
  readonly mcpServers: readonly McpToolSource[];
  /**
   * Runs the agent on a session: the session is created when missing, its stored history is
   * repaired and resumed, the input is appended (persisted before the first model call), and every
   * model call's usage is recorded in the workspace's usage table. Without `input` the stored
   * history is resumed as it is (after a restart).
   */
  run(input: AgentInput | undefined, options?: AgentRunOptions): AgentRun;
  /** Closes the tool sources (MCP servers, sandbox) and, when it opened it, the workspace. */
  close(): Promise<void>;
}

function qualified(reference: string, fallbackProvider: string): string {
  return reference.includes('/') ? reference : `${fallbackProvider}/${reference}`;
}

/**
 * Builds the whole agent stack of a workspace in one call: the provider from the registry and the
 * workspace's secrets, the tool set (native tools, sandboxed tools rooted at `root/`, skills, MCP
 * servers, plugins, permission rules and mode), the session store with its usage recorder, and the
 * system prompt layers (agent definition, AGENTS.md, output style). The server, the CLI and
 * embedders all use this one path.
 *
 * @example
 * const agent = await createAgent({ workspace: './my-workspace' });
 * const run = agent.run('Read notes.md and summarise it.');
 * for await (const event of run) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * const outcome = await run.outcome; // outcome.reason === 'end_turn'
 * await agent.close();
 */
export async function createAgent(options: CreateAgentOptions): Promise<Agent> {
  const owned = typeof options.workspace === 'string';
  const workspace = typeof options.workspace === 'string' ? await openWorkspace(options.workspace) : options.workspace;
  try {
    const name = options.agent ?? workspace.config.defaultAgent;
    const found = workspace.agents[name];
    if (found === undefined) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No agent "${name}" in this workspace: use one of ${Object.keys(workspace.agents).join(', ')} or add it under "agents" in the config.`,
      });
    }
    const definition: WorkspaceAgent = found;
    const defaultProvider = workspace.config.model.split('/')[0] ?? 'anthropic';
    const modelReference = qualified(options.model ?? definition.model ?? workspace.config.model, defaultProvider);
    const registry = await createWorkspaceRegistry(workspace, options.registry);
    let resolved: ReturnType<ProviderRegistry['resolve']>;
    try {
      resolved = registry.resolve(modelReference);
    } catch (error) {
      throw new GatewayError({
        reason: 'configuration',
        message: `Cannot use model "${modelReference}": ${(error as Error).message}`,
        cause: error,
      });
    }
    const { toolSet, mcp } = await createWorkspaceToolSet(workspace, {
      agent: definition,
      ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
      ...(options.ask === undefined ? {} : { ask: options.ask }),
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    });
    const providerId = resolved.entry.id;
    const telemetry = await loadTelemetry(options.telemetry ?? workspace.config.gateway.telemetry);
    let closed = false;
    return {
      workspace,
      definition,
      modelReference,
      model: resolved.model,
      provider: resolved.provider,
      registry,
      tools: toolSet,
      mcpServers: mcp,
      run(input, runOptions = {}) {
        const sessionId = runOptions.sessionId ?? randomUUID();
        const added = input === undefined ? [] : inputMessages(input);
        const recorder = createUsageRecorder(workspace.store.sessions, workspace.store.usage, {
          sessionId,
          provider: providerId,
          agent: definition.name,
        });
        let settle: (outcome: QueryOutcome) => void = () => {};
        let fail: (error: unknown) => void = () => {};
        const outcome = new Promise<QueryOutcome>((resolve, reject) => {
          settle = resolve;
          fail = reject;
        });
        outcome.catch(() => undefined);
        async function* events(): AsyncGenerator<QueryEvent, void> {
          const sessions = workspace.store.sessions;
          if ((await sessions.get(sessionId)) === undefined) {
            await sessions.create({ id: sessionId, agent: definition.name, model: modelReference });
          }
          const history: Message[] = await sessions.resume(sessionId);
          const messages = [...history, ...added];
          if (messages.length === 0) {
            throw new GatewayError({
              reason: 'invalid-request',
              message: `Session "${sessionId}" has no history to resume: pass a prompt.`,
            });
          }
          // Each run brings its own asker (a watcher over HTTP, the host's handler, or nobody).
          toolSet.setAsk(runOptions.ask ?? options.ask);
          const layers = await readSystemLayers(workspace);
          const config: QueryConfig = {
            model: resolved.model,
            agent: definition,
            ...(definition.maxTurns === undefined ? {} : { maxTurns: definition.maxTurns }),
            ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
            ...(layers.agentsMd === undefined ? {} : { agentsMd: layers.agentsMd }),
            ...(layers.outputStyle === undefined ? {} : { outputStyle: layers.outputStyle }),
            ...(layers.skills === undefined ? {} : { skills: layers.skills }),
            ...options.config,
            ...runOptions.config,
          };
          const run = runQuery({
            provider: resolved.provider,
            messages,
            tools: () => toolSet.tools(),
            toolContext: {
              root: workspace.paths.root,
              sessionId,
              allowedHosts: workspace.config.network.allowedHosts,
              ...(runOptions.askUser === undefined ? {} : { ask: runOptions.askUser }),
            },
            config,
            session: { store: recorder.store, sessionId },
            ...(runOptions.signal === undefined ? {} : { signal: runOptions.signal }),
            ...(runOptions.pending === undefined ? {} : { pending: runOptions.pending }),
          });
          const spans =
            telemetry === undefined
              ? undefined
              : createRunSpans(telemetry.api, telemetry.tracer, {
                  agent: definition.name,
                  provider: providerId,
                  model: resolved.model,
                  sessionId,
                });
          let ended: QueryOutcome | undefined;
          let failure: unknown;
          try {
            for (;;) {
              const next = await run.next();
              if (next.done) {
                ended = next.value;
                settle(next.value);
                return;
              }
              await recorder.observe(next.value);
              spans?.observe(next.value);
              yield next.value;
            }
          } catch (error) {
            failure = error;
            throw error;
          } finally {
            // Also reached when the caller stops iterating early: no span is left open.
            spans?.end(ended, failure);
          }
        }
        const wrapped = (async function* () {
          try {
            yield* events();
          } catch (error) {
            fail(error);
            throw error;
          }
        })();
        let started = false;
        const start = () => {
          started = true;
          return wrapped;
        };
        return {
          sessionId,
          get outcome() {
            if (!started) {
              start();
              void (async () => {
                try {
                  for await (const _event of wrapped);
                } catch {
                  // The outcome promise carries the failure.
                }
              })();
            }
            return outcome;
          },
          [Symbol.asyncIterator]: start,
        };
      },
      async close() {
        if (closed) return;
        closed = true;
        await toolSet.close();
        if (owned) await workspace.close();
      },
    };
  } catch (error) {
    if (owned) await workspace.close();
    throw error;
  }
}
