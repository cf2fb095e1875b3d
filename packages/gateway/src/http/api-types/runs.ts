/**
 * Questions a run asks the person watching it: a permission `ask` rule that matched a tool call,
 * or the model's `ask_user_question`. Stored as run events (`question`, `question-answered`), so
 * every watcher of the run sees them, and answered with `POST /runs/:id/questions/:questionId/answer`.
 */

/** One choice of an `ask_user_question` question. */
export interface QuestionOption {
  label: string;
  description?: string;
}

/** Data of the run event `question`, and one entry of `GET /runs/:id/questions`. */
export interface RunQuestion {
  /** Random id, unique per question; the answer route takes it. */
  questionId: string;
  /** `permission`: a tool call needs approval; `question`: the model asks (`ask_user_question`). */
  kind: 'permission' | 'question';
  toolName?: string;
  toolCallId?: string;
  /** The tool's input, for display: long strings, arrays and deep nesting are cut (marked with `…`). */
  input?: unknown;
  /** The question; for a permission, a sentence saying what the tool wants to do. */
  question: string;
  options?: QuestionOption[];
  multiSelect?: boolean;
  /** The `ask` rule that matched (permission only). */
  rule?: string;
  /** When the question is answered by timeout (ISO 8601). */
  expiresAt?: string;
}

/** Body of `POST /runs/:id/questions/:questionId/answer` for a permission question. */
export interface PermissionAnswerBody {
  decision: 'allow' | 'deny';
  /** Why, for a denial: the model reads it. */
  reason?: string;
}

/** Body of the answer route for an `ask_user_question` question: one label, several (multiSelect), or free text. */
export interface QuestionAnswerBody {
  answer: string | string[];
}

/** Either answer body. */
export type RunQuestionAnswerBody = PermissionAnswerBody | QuestionAnswerBody;

/** Who answered a question: the user, the timeout (`gateway.questions.timeoutMs`), or the run's cancel. */
export type QuestionAnsweredBy = 'user' | 'timeout' | 'cancel';

/** Data of the run event `question-answered`. */
export interface RunQuestionAnswered {
  questionId: string;
  by: QuestionAnsweredBy;
  /** Permission questions. */
  decision?: 'allow' | 'deny';
  reason?: string;
  /** `ask_user_question` questions answered by the user. */
  answer?: string | string[];
}

/** `GET /runs/:id/questions`: the run's open questions, oldest first. */
export interface RunQuestionsResponse {
  questions: RunQuestion[];
}

/** `POST /runs/:id/questions/:questionId/answer` on success. */
export interface AnswerQuestionResponse {
  ok: true;
}
