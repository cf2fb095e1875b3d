import type {
  AnswerQuestionResponse,
  InjectedMessageJson,
  RunJson,
  RunListJson,
  RunQuestionAnswerBody,
  RunQuestionsResponse,
  SessionJson,
} from '../../../src/http/api-types/index.js';
import { request } from './http';
import { sessionPath } from './sessions';

/** A new empty session for the chosen agent and model (the first run then goes to it). */
export function createSession(options: { agent?: string; model?: string; title?: string }) {
  return request<SessionJson>('/sessions', { method: 'POST', body: options });
}

/** Starts a run in the background (202): the record, whose events are then read from {@link runEventsPath}. */
export function startRun(sessionId: string, body: { input: string; agent?: string; model?: string }) {
  return request<RunJson>(`${sessionPath(sessionId)}/runs`, { method: 'POST', body: { ...body, mode: 'background' } });
}

/** The session's runs (to find the one still running after a reload or in another tab). */
export function listSessionRuns(sessionId: string, signal?: AbortSignal) {
  return request<RunListJson>(`${sessionPath(sessionId)}/runs`, signal === undefined ? {} : { signal });
}

export function getRun(runId: string, signal?: AbortSignal) {
  return request<RunJson>(`/runs/${encodeURIComponent(runId)}`, signal === undefined ? {} : { signal });
}

export function cancelRun(runId: string) {
  return request<RunJson>(`/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' });
}

/** A message typed while the run works: the loop takes it before its next model call. */
export function injectMessage(runId: string, content: string) {
  return request<InjectedMessageJson>(`/runs/${encodeURIComponent(runId)}/messages`, {
    method: 'POST',
    body: { content },
  });
}

export function listRunQuestions(runId: string, signal?: AbortSignal) {
  return request<RunQuestionsResponse>(
    `/runs/${encodeURIComponent(runId)}/questions`,
    signal === undefined ? {} : { signal },
  );
}

export function answerRunQuestion(runId: string, questionId: string, body: RunQuestionAnswerBody) {
  return request<AnswerQuestionResponse>(
    `/runs/${encodeURIComponent(runId)}/questions/${encodeURIComponent(questionId)}/answer`,
    { method: 'POST', body },
  );
}

/** The SSE path of a run's events (ids are sequence numbers; `Last-Event-ID` resumes after one). */
export function runEventsPath(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}/events`;
}
