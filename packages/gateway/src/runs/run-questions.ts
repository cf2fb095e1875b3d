import { randomUUID } from 'node:crypto';
import type { UserAnswer, UserQuestion } from '@boxagnts/tools';
import type { AskHandler, PermissionAnswer, PermissionRequest } from '@boxagnts/tools-manager';
import type { QuestionAnsweredBy, RunQuestion, RunQuestionAnswered } from '../http/api-types/runs.js';
import { boundedInput, permissionSentence } from './question-display.js';

/** The event types of questions in a run's log. */
export const QUESTION_EVENT = 'question';
export const QUESTION_ANSWERED_EVENT = 'question-answered';

/** What the questions of one executing run need from its executor. */
export interface RunQuestionsHost {
  /** Appends a run event of the executing attempt; undefined when the attempt lost the run. */
  append(type: string, data: Record<string, unknown>): Promise<{ seq: number } | undefined>;
  /** The first `question-answered` event stored for the question after `afterSeq`, if any (the log decides). */
  firstAnswer(questionId: string, afterSeq: number): Promise<RunQuestionAnswered | undefined>;
  /** Aborted when the run is cancelled (or stopped); open questions are then answered by `cancel`. */
  signal: AbortSignal;
  /** Whether the abort is a hand-back at shutdown (the run resumes elsewhere; nothing is written). */
  handingBack(): boolean;
  timeoutMs: number;
  /** Called while questions wait, so the executor re-reads the log on a timer (signals are only hints). */
  waiting(count: number): void;
}

interface Waiting {
  question: RunQuestion;
  seq: number;
  settle(answered: RunQuestionAnswered): void;
  timer: NodeJS.Timeout;
}

function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${Math.round(ms / 1000)} s`;
}

/**
 * The questions of one run watched over HTTP: a permission `ask` or an `ask_user_question` call is
 * stored as a `question` event and waits until its `question-answered` event (the user's answer
 * through the API, on any gateway; the timeout; or the run's cancel). The first answer stored wins.
 */
export class RunQuestions {
  readonly #host: RunQuestionsHost;
  readonly #waiting = new Map<string, Waiting>();

  constructor(host: RunQuestionsHost) {
    this.#host = host;
  }

  /** Questions waiting now. */
  get size(): number {
    return this.#waiting.size;
  }

  /** The permission handler of the run's tool set. */
  readonly askPermission: AskHandler = async (request: PermissionRequest): Promise<PermissionAnswer> => {
    const answered = await this.#ask({
      kind: 'permission',
      toolName: request.tool.name,
      toolCallId: request.context.toolCallId,
      input: boundedInput(request.input),
      question: permissionSentence(request),
      ...(request.rule === undefined ? {} : { rule: request.rule }),
    });
    if (answered.by === 'user' && answered.decision === 'allow') return { behavior: 'allow' };
    return { behavior: 'deny', reason: this.#denialReason(answered) };
  };

  /** The `ask` of the run's tool context (`ask_user_question`). */
  readonly askUser = async (question: UserQuestion, _signal: AbortSignal): Promise<UserAnswer> => {
    const answered = await this.#ask({
      kind: 'question',
      question: question.question,
      ...(question.options === undefined ? {} : { options: question.options }),
      ...(question.multiSelect === undefined ? {} : { multiSelect: question.multiSelect }),
    });
    if (answered.by === 'user' && answered.answer !== undefined) {
      return { answered: true, answer: Array.isArray(answered.answer) ? answered.answer.join(', ') : answered.answer };
    }
    return {
      answered: false,
      reason:
        answered.by === 'timeout'
          ? `no user answered within ${minutes(this.#host.timeoutMs)}`
          : 'the run was cancelled while the question waited',
    };
  };

  /** Hands a stored `question-answered` event to the question waiting for it (ignored otherwise). */
  deliver(data: Record<string, unknown>): void {
    const questionId = data.questionId;
    if (typeof questionId !== 'string') return;
    const waiting = this.#waiting.get(questionId);
    if (waiting === undefined) return;
    this.#finish(questionId, waiting, data as unknown as RunQuestionAnswered);
  }

  #denialReason(answered: RunQuestionAnswered): string {
    if (answered.by === 'timeout') {
      return `nobody answered the permission question within ${minutes(this.#host.timeoutMs)}, so the call was denied`;
    }
    if (answered.by === 'cancel') return 'the run was cancelled while the permission question waited';
    return answered.reason ?? 'the user denied it';
  }

  #finish(questionId: string, waiting: Waiting, answered: RunQuestionAnswered): void {
    if (this.#waiting.get(questionId) !== waiting) return;
    this.#waiting.delete(questionId);
    clearTimeout(waiting.timer);
    this.#host.waiting(this.#waiting.size);
    waiting.settle(answered);
  }

  /** Answers a waiting question by timeout or cancel, unless a user's answer was stored first. */
  async #answerBy(questionId: string, by: Exclude<QuestionAnsweredBy, 'user'>): Promise<void> {
    const waiting = this.#waiting.get(questionId);
    if (waiting === undefined) return;
    const own: RunQuestionAnswered =
      waiting.question.kind === 'permission'
        ? { questionId, by, decision: 'deny', reason: by === 'timeout' ? 'timeout' : 'cancelled' }
        : { questionId, by };
    if (by === 'cancel' && this.#host.handingBack()) {
      // Left for the gateway that resumes the run: it closes the question itself.
      this.#finish(questionId, waiting, own);
      return;
    }
    const stored = await this.#host.append(QUESTION_ANSWERED_EVENT, { ...own }).catch(() => undefined);
    const first =
      stored === undefined ? undefined : await this.#host.firstAnswer(questionId, waiting.seq).catch(() => undefined);
    this.#finish(questionId, waiting, first ?? own);
  }

  async #ask(fields: Omit<RunQuestion, 'questionId' | 'expiresAt'>): Promise<RunQuestionAnswered> {
    const questionId = randomUUID();
    const cancelled: RunQuestionAnswered = { questionId, by: 'cancel' };
    if (this.#host.signal.aborted) return cancelled;
    const question: RunQuestion = {
      questionId,
      ...fields,
      expiresAt: new Date(Date.now() + this.#host.timeoutMs).toISOString(),
    };
    const stored = await this.#host.append(QUESTION_EVENT, { ...question });
    if (stored === undefined) return cancelled;
    return new Promise<RunQuestionAnswered>((resolve) => {
      const onAbort = () => void this.#answerBy(questionId, 'cancel');
      const timer = setTimeout(() => void this.#answerBy(questionId, 'timeout'), this.#host.timeoutMs);
      timer.unref();
      this.#waiting.set(questionId, {
        question,
        seq: stored.seq,
        timer,
        settle: (answered) => {
          this.#host.signal.removeEventListener('abort', onAbort);
          resolve(answered);
        },
      });
      this.#host.waiting(this.#waiting.size);
      this.#host.signal.addEventListener('abort', onAbort, { once: true });
      if (this.#host.signal.aborted) onAbort();
      // An answer stored before this question was registered (a scan ran in between) is not lost.
      void this.#host.firstAnswer(questionId, stored.seq).then(
        (answered) => answered !== undefined && this.deliver({ ...answered }),
        () => undefined,
      );
    });
  }
}

/** The questions of a run's events that no `question-answered` event closed, oldest first. */
export function openQuestions(events: readonly { type: string; data: Record<string, unknown> }[]): RunQuestion[] {
  const open = new Map<string, RunQuestion>();
  for (const event of events) {
    if (event.type === QUESTION_EVENT) open.set(String(event.data.questionId), event.data as unknown as RunQuestion);
    else if (event.type === QUESTION_ANSWERED_EVENT) open.delete(String(event.data.questionId));
  }
  return [...open.values()];
}
