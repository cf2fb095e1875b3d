import { getDefaultProviderRegistry, type LlmProvider, type Message } from '@boxagnts/api';
import type { AgentRunner, AnyTool, SubAgentRequest, SubAgentResult, SubAgentStatus } from '@boxagnts/tools';
import type { QueryOptions } from '../config.js';
import type { QueryEvent } from '../events.js';
import type { BudgetLedger } from '../limits/budget-ledger.js';
import type { QueryOutcome, RunUsage } from '../outcome.js';
import type { RunIdentity } from '../run-state.js';
import type { RunSession } from '../session/persist.js';
import { recordSubAgent } from '../usage-totals.js';
import type { Semaphore } from './semaphore.js';
import type { PreparedRoot, SubAgentConfig } from './sub-agent-config.js';

/** What a runner knows of the run that owns it. */
export interface ParentRun {
  options: QueryOptions;
  depth: number;
  signal: AbortSignal;
  usage: RunUsage;
  /** The parent's USD ledger: each child's ledger is chained to it (one ledger per tree). */
  ledger?: BudgetLedger;
  /** The parent's session: children get child sessions there and record their usage in its store. */
  session?: RunSession;
  /** The parent's event sink: sub-agent events go there, tagged. */
  emit(event: QueryEvent): void;
  /** USD the tree may still spend, or undefined without a tree budget. */
  remainingBudget(): number | undefined;
  /** Starts a child loop (the loop passes itself in, so this module never imports it). */
  runChild(
    options: QueryOptions,
    depth: number,
    child: RunIdentity | undefined,
    onEvent: (event: QueryEvent) => void,
  ): Promise<QueryOutcome>;
  config: SubAgentConfig;
  semaphore: Semaphore;
}

interface BackgroundRun {
  id: string;
  description: string;
  controller: AbortController;
  turns: number;
  result?: SubAgentResult;
  done: Promise<SubAgentResult>;
}

const STATUS_BY_REASON: Record<QueryOutcome['reason'], SubAgentResult['status']> = {
  end_turn: 'completed',
  refusal: 'completed',
  max_turns: 'max_turns',
  budget_exceeded: 'budget_exceeded',
  cancelled: 'cancelled',
  context_overflow: 'failed',
  tool_loop: 'failed',
  error: 'failed',
};

/** The default model calls of a sub-agent, and the ceiling when the host sets none. */
const DEFAULT_SUB_AGENT_TURNS = 10;

const AGENT_TOOLS = new Set(['agent', 'agent_status']);

/**
 * The sub-agents of one run: each is a separate loop with its own context, limits and events
 * (forwarded to the parent, tagged with the tool call that started it); cancelling the parent
 * cancels every child. `forCall` gives the {@link AgentRunner} a tool call sees.
 */
export class SubAgentPool {
  private readonly background = new Map<string, BackgroundRun>();
  private counter = 0;

  constructor(private readonly parent: ParentRun) {}

  /** The runner for one tool call: its sub-agents' events are tagged with `toolCallId`. */
  forCall(toolCallId: string): AgentRunner {
    return {
      run: (request, signal) => this.run(request, signal, toolCallId),
      start: (request) => this.start(request, toolCallId),
      status: (id) => this.status(id),
      wait: (id, timeoutMs, signal) => this.wait(id, timeoutMs, signal),
      cancel: (id) => this.cancel(id),
    };
  }

  private nextId(): string {
    this.counter++;
    return `agent-${this.parent.depth + 1}-${this.counter}`;
  }

  async run(request: SubAgentRequest, signal: AbortSignal, toolCallId = ''): Promise<SubAgentResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.execute(this.nextId(), request, controller, toolCallId, () => undefined);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async start(request: SubAgentRequest, toolCallId = ''): Promise<{ id: string }> {
    const id = this.nextId();
    const controller = new AbortController();
    const entry: BackgroundRun = {
      id,
      description: request.description,
      controller,
      turns: 0,
      done: Promise.resolve(undefined as unknown as SubAgentResult),
    };
    entry.done = this.execute(id, request, controller, toolCallId, (turns) => {
      entry.turns = turns;
    }).then((result) => {
      entry.result = result;
      return result;
    });
    this.background.set(id, entry);
    return { id };
  }

  async status(id: string): Promise<SubAgentStatus | undefined> {
    const entry = this.background.get(id);
    if (entry === undefined) return undefined;
    return entry.result
      ? { id, state: 'done', description: entry.description, result: entry.result }
      : { id, state: 'running', description: entry.description, turns: entry.turns };
  }

  async wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<SubAgentStatus | undefined> {
    const entry = this.background.get(id);
    if (entry === undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      entry.done,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    return this.status(id);
  }

  async cancel(id: string): Promise<boolean> {
    const entry = this.background.get(id);
    if (entry === undefined || entry.result !== undefined) return false;
    entry.controller.abort(new Error('cancelled by agent_status'));
    await entry.done;
    return true;
  }

  /** Cancels every background run still going (the parent run is ending) and waits for them. */
  async close(): Promise<void> {
    const running = [...this.background.values()].filter((entry) => entry.result === undefined);
    for (const entry of running) entry.controller.abort(new Error('the parent run ended'));
    await Promise.all(running.map((entry) => entry.done));
  }

  private childTools(request: SubAgentRequest, depth: number): { tools: AnyTool[] } | { error: string } {
    const list = this.parent.options.tools;
    const all = typeof list === 'function' ? list() : (list ?? []);
    const maxDepth = this.parent.config.maxDepth ?? 2;
    const mayNest = depth < maxDepth;
    if (request.tools === undefined) {
      return { tools: all.filter((tool) => !AGENT_TOOLS.has(tool.name)) };
    }
    const byName = new Map(all.map((tool) => [tool.name, tool]));
    const unknown = request.tools.filter((name) => !byName.has(name));
    if (unknown.length > 0) {
      return { error: `unknown tool name(s) ${unknown.join(', ')}; available: ${[...byName.keys()].join(', ')}` };
    }
    const wanted = request.tools.filter((name) => mayNest || !AGENT_TOOLS.has(name));
    if (wanted.includes('agent') && !wanted.includes('agent_status') && byName.has('agent_status')) {
      wanted.push('agent_status');
    }
    return { tools: wanted.map((name) => byName.get(name) as AnyTool) };
  }

  /**
   * The provider and model a sub-agent runs on: the parent's (or the host's sub-agent model), or
   * the request's override. An override `vendor/model` goes through the host's `resolveModel`,
   * then the provider registry (`subAgents.providers`, default the registry of @boxagnts/api, keys
   * from the environment); the parent's own provider id keeps the parent's provider.
   */
  private modelFor(override: string | undefined): { provider: LlmProvider; model: string } | { error: string } {
    const parent = this.parent;
    const provider = parent.config.provider ?? parent.options.provider;
    if (override === undefined) return { provider, model: parent.config.model ?? parent.options.config.model };
    const resolved = parent.config.resolveModel?.(override);
    if (resolved) return resolved;
    const slash = override.indexOf('/');
    if (slash <= 0) return { provider, model: override };
    const vendor = override.slice(0, slash);
    const model = override.slice(slash + 1);
    if (model === '') return { error: `the model "${override}" names no model: write "${vendor}/<model>"` };
    if (vendor === provider.id) return { provider, model };
    const registry = parent.config.providers ?? getDefaultProviderRegistry();
    const known = registry.list().map((status) => status.id);
    if (!known.includes(vendor)) {
      return {
        error: `unknown provider "${vendor}" in model "${override}": use one of ${known.slice(0, 30).join(', ')}, or a bare model id for the parent's provider`,
      };
    }
    try {
      return { provider: registry.getProvider(vendor), model };
    } catch (error) {
      return {
        error: `provider "${vendor}" cannot be used: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  /** The child session of a sub-agent, created in the parent's store when it can hold one. */
  private async childSession(id: string, request: SubAgentRequest): Promise<RunSession | undefined> {
    const session = this.parent.session;
    if (session?.store.createChildSession === undefined) return undefined;
    const sessionId = `${session.sessionId}/${id}`;
    await session.store.createChildSession({
      sessionId,
      parentSessionId: session.sessionId,
      title: request.description,
      ...(this.parent.options.config.managed ? { agent: 'executor' } : {}),
    });
    return { store: session.store, sessionId };
  }

  private async execute(
    id: string,
    request: SubAgentRequest,
    controller: AbortController,
    toolCallId: string,
    onTurn: (turns: number) => void,
  ): Promise<SubAgentResult> {
    const parent = this.parent;
    const depth = parent.depth + 1;
    const maxDepth = parent.config.maxDepth ?? 2;
    if (depth > maxDepth) {
      return { status: 'failed', output: '', turns: 0, error: `sub-agents may nest at most ${maxDepth} deep` };
    }
    const selected = this.childTools(request, depth);
    if ('error' in selected) return { status: 'failed', output: '', turns: 0, error: selected.error };
    const onParentAbort = () => controller.abort(parent.signal.reason);
    if (parent.signal.aborted) controller.abort(parent.signal.reason);
    parent.signal.addEventListener('abort', onParentAbort, { once: true });
    const timeout = setTimeout(
      () => controller.abort(new Error('sub-agent timed out')),
      parent.config.timeoutMs ?? 600_000,
    );
    const acquired = await parent.semaphore.acquire(controller.signal);
    let prepared: PreparedRoot | undefined;
    let rootGivenBack = false;
    try {
      if (!acquired || controller.signal.aborted) return { status: 'cancelled', output: '', turns: 0 };
      const target = this.modelFor(request.model);
      if ('error' in target) return { status: 'failed', output: '', turns: 0, error: target.error };
      const { provider, model } = target;
      prepared = parent.config.prepareRoot ? await parent.config.prepareRoot(request, id) : undefined;
      // Host caps are ceilings: the model's max_turns may only lower them.
      const cap = parent.config.defaultMaxTurns ?? DEFAULT_SUB_AGENT_TURNS;
      const maxTurns = Math.min(request.maxTurns ?? cap, cap);
      const own = parent.config.budgetUsd;
      const childSession = await this.childSession(id, request);
      const messages: Message[] = [{ role: 'user', content: request.prompt }];
      const { costs: _costs, agents: _agents, ...context } = parent.options.toolContext;
      const options: QueryOptions = {
        ...parent.options,
        messages,
        tools: selected.tools,
        toolContext: { ...context, ...(prepared ? { root: prepared.root } : {}) },
        config: {
          ...parent.options.config,
          model,
          maxTurns,
          // The child's own limit only; the tree's is enforced through the chained ledger.
          budgetUsd: undefined,
          managed: undefined,
          agent: undefined,
          ...(prepared ? { workingDirectory: prepared.root } : {}),
        },
        provider,
        signal: controller.signal,
        pending: undefined,
        session: childSession,
      };
      if (own === undefined) delete options.config.budgetUsd;
      else options.config.budgetUsd = own;
      if (childSession === undefined) delete options.session;
      const identity: RunIdentity = { subAgentId: id };
      if (parent.ledger !== undefined) identity.parentLedger = parent.ledger;
      if (parent.session !== undefined) identity.usageSession = parent.session;
      const outcome = await parent.runChild(options, depth, identity, (event) => {
        if (event.type === 'turn-start') onTurn(event.turn);
        if (event.type !== 'done') {
          parent.emit({ type: 'sub-agent', agentId: id, parentToolCallId: toolCallId, depth, event });
        }
      });
      recordSubAgent(parent.usage, id, outcome.usage);
      const finish = prepared?.finish;
      rootGivenBack = true;
      const finished = finish ? await finish() : undefined;
      const noteText = finished?.note ?? prepared?.note;
      const note = noteText ? `\n\n${noteText}` : '';
      return {
        status: STATUS_BY_REASON[outcome.reason],
        output: `${outcome.text}${note}`,
        turns: outcome.turns,
        costUsd: outcome.usage.total.costUsd,
        ...(outcome.reason === 'error' ? { error: outcome.error } : {}),
        ...(outcome.reason === 'context_overflow' ? { error: 'the context overflowed' } : {}),
        ...(outcome.reason === 'tool_loop' ? { error: 'it kept repeating the same tool calls' } : {}),
      };
    } finally {
      // A sub-agent that failed still gives its working copy back.
      if (prepared?.finish && !rootGivenBack) await prepared.finish().catch(() => undefined);
      clearTimeout(timeout);
      if (acquired) parent.semaphore.release();
      parent.signal.removeEventListener('abort', onParentAbort);
    }
  }
}
