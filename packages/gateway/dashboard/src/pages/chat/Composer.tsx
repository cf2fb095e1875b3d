import { type FormEvent, type KeyboardEvent, useState } from 'react';

export interface ComposerProps {
  /** A run is live: the message is injected into it instead of starting a new run. */
  running: boolean;
  pending: boolean;
  onSend: (text: string) => Promise<unknown>;
  onCancel: () => void;
  cancelling: boolean;
}

/** The message box: Enter sends (Shift+Enter for a new line); while a run works the message goes into it. */
export function Composer({ running, pending, onSend, onCancel, cancelling }: ComposerProps) {
  const [text, setText] = useState('');
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (message === '' || pending) return;
    try {
      await onSend(message);
      setText('');
    } catch {
      // The page shows the gateway's error; the text stays so nothing typed is lost.
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };
  return (
    <form className="chat-composer" onSubmit={submit}>
      <label className="field grow">
        <span>{running ? 'Message to the running agent' : 'Message'}</span>
        <textarea
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby="chat-composer-hint"
        />
      </label>
      <p id="chat-composer-hint" className="muted chat-hint">
        Enter sends, Shift+Enter adds a line.
        {running ? ' The agent reads your message before its next step.' : ''}
      </p>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={pending || text.trim() === ''}>
          {running ? 'Send to the run' : 'Send'}
        </button>
        {running ? (
          <button type="button" className="btn btn-danger" onClick={onCancel} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel run'}
          </button>
        ) : null}
      </div>
    </form>
  );
}
