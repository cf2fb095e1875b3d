import type { ParsedRequest } from '../protocols/protocol.js';
import type { MockFault, MockMatch, MockRule, MockScript, MockStep } from '../script/types.js';

/** Does a request meet every condition of a match? A `/regex/` model string is a pattern. */
export function matches(match: MockMatch, request: ParsedRequest): boolean {
  if (match.protocol !== undefined && match.protocol !== request.protocol) return false;
  if (match.stream !== undefined && match.stream !== request.stream) return false;
  if (match.contains !== undefined && !request.rawBody.includes(match.contains)) return false;
  if (match.model !== undefined) {
    const pattern = /^\/(.+)\/([a-z]*)$/.exec(match.model);
    if (pattern) {
      if (!new RegExp(pattern[1] ?? '', pattern[2]).test(request.model)) return false;
    } else if (match.model !== request.model) {
      return false;
    }
  }
  return true;
}

class StepQueue {
  private position = 0;

  constructor(
    readonly steps: MockStep[],
    private readonly repeatLast: boolean,
  ) {}

  get remaining(): number {
    return Math.max(0, this.steps.length - this.position);
  }

  peek(): MockStep | undefined {
    if (this.position < this.steps.length) return this.steps[this.position];
    return this.repeatLast ? this.steps[this.steps.length - 1] : undefined;
  }

  take(): MockStep | undefined {
    const step = this.peek();
    if (this.position < this.steps.length) this.position += 1;
    return step;
  }
}

/** A step chosen for a request, and where it came from. */
export interface Selection {
  step: MockStep;
  servedBy: string;
}

interface InjectedFault {
  fault: MockFault;
  match: MockMatch | undefined;
  times: number;
}

/**
 * The server's script state: rule queues (first match wins), the default queue, and one-shot
 * faults injected for upcoming requests.
 */
export class ScriptState {
  private rules: Array<{ rule: MockRule; queue: StepQueue }> = [];
  private defaults = new StepQueue([], false);
  private injected: InjectedFault[] = [];
  script: MockScript = {};

  load(script: MockScript): void {
    this.script = script;
    this.rules = (script.rules ?? []).map((rule) => ({
      rule,
      queue: new StepQueue([...rule.steps], rule.repeatLast ?? false),
    }));
    this.defaults = new StepQueue([...(script.steps ?? [])], script.repeatLast ?? false);
    this.injected = [];
  }

  enqueue(steps: MockStep[]): void {
    this.defaults.steps.push(...steps);
  }

  addRule(rule: MockRule): void {
    this.rules.push({ rule, queue: new StepQueue([...rule.steps], rule.repeatLast ?? false) });
  }

  inject(fault: MockFault, match: MockMatch | undefined, times: number): void {
    this.injected.push({ fault, match, times });
  }

  /** Steps left in the default queue. */
  get remaining(): number {
    return this.defaults.remaining;
  }

  /** Take the next injected fault that applies to this request, if any. */
  takeInjectedFault(request: ParsedRequest): MockFault | undefined {
    const index = this.injected.findIndex((entry) => !entry.match || matches(entry.match, request));
    const entry = this.injected[index];
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) this.injected.splice(index, 1);
    return entry.fault;
  }

  /**
   * The step for a request. With `consume: false` (a request hit by an injected fault) the step is
   * only looked at, so the client's retry gets the same step in full.
   */
  select(request: ParsedRequest, consume: boolean): Selection | undefined {
    for (const [index, { rule, queue }] of this.rules.entries()) {
      if (!matches(rule.match, request) || queue.peek() === undefined) continue;
      const step = consume ? queue.take() : queue.peek();
      if (step) return { step, servedBy: `rule:${index}` };
    }
    const step = consume ? this.defaults.take() : this.defaults.peek();
    return step ? { step, servedBy: 'default' } : undefined;
  }
}
