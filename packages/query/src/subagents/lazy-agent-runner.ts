import type { AgentRunner, SubAgentRequest, SubAgentResult, SubAgentStatus } from '@boxagnts/tools';

/**
 * The {@link AgentRunner} a tool call sees, opened on first use: the run's sub-agent pool (and the
 * call's runner from it) is only made when a tool really starts or asks about a sub-agent, which
 * most calls never do. One small object per call, no closures.
 */
export class LazyAgentRunner implements AgentRunner {
  private runner: AgentRunner | undefined;

  constructor(
    private readonly open: (toolCallId: string) => AgentRunner,
    private readonly toolCallId: string,
  ) {}

  private get target(): AgentRunner {
    this.runner ??= this.open(this.toolCallId);
    return this.runner;
  }

  run(request: SubAgentRequest, signal: AbortSignal): Promise<SubAgentResult> {
    return this.target.run(request, signal);
  }

  start(request: SubAgentRequest): Promise<{ id: string }> {
    return this.target.start(request);
  }

  status(id: string): Promise<SubAgentStatus | undefined> {
    return this.target.status(id);
  }

  wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<SubAgentStatus | undefined> {
    return this.target.wait(id, timeoutMs, signal);
  }

  cancel(id: string): Promise<boolean> {
    return this.target.cancel(id);
  }
}
