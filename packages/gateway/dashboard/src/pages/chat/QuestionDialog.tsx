import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { RunQuestion, RunQuestionAnswerBody } from '../../../../src/http/api-types/index.js';
import { answerRunQuestion } from '../../api/runs';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';

/**
 * A question of the run, as a dialog that must be answered: Allow/Deny for a permission ask, the
 * options (radio buttons, or checkboxes when several may be picked) or a text box for a question.
 * It closes when the question is answered, here or in another tab (`question-answered`).
 */
export function QuestionDialog({ runId, question }: { runId: string; question: RunQuestion }) {
  const answer = useMutation({
    mutationFn: (body: RunQuestionAnswerBody) => answerRunQuestion(runId, question.questionId, body),
  });
  const title = question.kind === 'permission' ? `Allow ${question.toolName ?? 'this tool'}?` : 'The agent asks';
  return (
    <Dialog open title={title}>
      {question.kind === 'permission' ? (
        <PermissionForm question={question} pending={answer.isPending} onAnswer={(body) => answer.mutate(body)} />
      ) : (
        <QuestionForm question={question} pending={answer.isPending} onAnswer={(body) => answer.mutate(body)} />
      )}
      <ErrorNotice error={answer.error} label="The answer was not taken" />
    </Dialog>
  );
}

interface FormProps {
  question: RunQuestion;
  pending: boolean;
  onAnswer: (body: RunQuestionAnswerBody) => void;
}

function PermissionForm({ question, pending, onAnswer }: FormProps) {
  const [reason, setReason] = useState('');
  return (
    <div className="stack">
      <p>{question.question}</p>
      {question.rule === undefined ? null : (
        <p className="muted">
          Asked because of the rule <code>{question.rule}</code>.
        </p>
      )}
      {question.input === undefined ? null : (
        <details>
          <summary>Tool input</summary>
          <pre className="chat-pre">{JSON.stringify(question.input, null, 2)}</pre>
        </details>
      )}
      <label className="field">
        <span>Reason for a denial (the agent reads it)</span>
        <input value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          onClick={() => onAnswer({ decision: 'allow' })}
        >
          Allow
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={pending}
          onClick={() =>
            onAnswer(reason.trim() === '' ? { decision: 'deny' } : { decision: 'deny', reason: reason.trim() })
          }
        >
          Deny
        </button>
      </div>
    </div>
  );
}

function QuestionForm({ question, pending, onAnswer }: FormProps) {
  const options = question.options ?? [];
  const [picked, setPicked] = useState<string[]>([]);
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (options.length === 0) onAnswer({ answer: text });
    else onAnswer({ answer: question.multiSelect === true ? picked : (picked[0] ?? '') });
  };
  const ready = options.length === 0 ? text.trim() !== '' : picked.length > 0;
  return (
    <form className="stack" onSubmit={submit}>
      {options.length === 0 ? (
        <label className="field">
          <span>{question.question}</span>
          <textarea rows={3} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      ) : (
        <fieldset className="chat-options">
          <legend>{question.question}</legend>
          {options.map((option) => (
            <label key={option.label} className="chat-option">
              <input
                type={question.multiSelect === true ? 'checkbox' : 'radio'}
                name="answer"
                value={option.label}
                checked={picked.includes(option.label)}
                onChange={(event) =>
                  setPicked((current) =>
                    question.multiSelect === true
                      ? event.target.checked
                        ? [...current, option.label]
                        : current.filter((label) => label !== option.label)
                      : [option.label],
                  )
                }
              />
              <span>
                {option.label}
                {option.description === undefined ? null : <span className="muted"> — {option.description}</span>}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={pending || !ready}>
          Answer
        </button>
      </div>
    </form>
  );
}
