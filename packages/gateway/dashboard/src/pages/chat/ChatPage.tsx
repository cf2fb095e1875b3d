import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { RunJson } from '../../../../src/http/api-types/index.js';
import { listAgents } from '../../api/catalog';
import { cancelRun, createSession, injectMessage, listSessionRuns, startRun } from '../../api/runs';
import { getSession } from '../../api/sessions';
import { listModels } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { Composer } from './Composer';
import { HistoryView } from './HistoryView';
import { QuestionDialog } from './QuestionDialog';
import { type RunChoice, RunPicker } from './RunPicker';
import { RunTranscript } from './RunTranscript';
import { useRunStream } from './use-run-stream';
// The transcript look (Markdown, highlighted code, tool cards) is shared with the Sessions page.
import '../sessions/sessions.css';
import './chat.css';

/** The run shown under the history: its id and when it was made (messages from then on are its own). */
interface ShownRun {
  id: string;
  createdAt: number;
}

const isLive = (run: RunJson) => run.status === 'queued' || run.status === 'running';

/**
 * Chat with an agent: a session's history, then the run being watched, streamed live (resumed after a
 * reload or a dropped connection, and followed from any tab), with its questions as dialogs.
 */
export function ChatPage() {
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<RunChoice>({ agent: '', model: '' });
  const [shown, setShown] = useState<ShownRun | undefined>(undefined);

  const agents = useQuery({ queryKey: ['agents'], queryFn: ({ signal }) => listAgents(signal) });
  const models = useQuery({ queryKey: ['models'], queryFn: ({ signal }) => listModels(signal) });
  const session = useQuery({
    queryKey: ['session', sessionId],
    queryFn: ({ signal }) => getSession(sessionId as string, signal),
    enabled: sessionId !== undefined,
  });
  const stream = useRunStream(shown?.id, () => {
    void queryClient.invalidateQueries({ queryKey: ['session', sessionId] });
    void queryClient.invalidateQueries({ queryKey: ['session-runs', sessionId] });
  });
  const running = stream.view !== undefined && (stream.view.status === 'queued' || stream.view.status === 'running');
  // While no run is followed, look for one started elsewhere (another tab, the API, cron).
  const runs = useQuery({
    queryKey: ['session-runs', sessionId],
    queryFn: ({ signal }) => listSessionRuns(sessionId as string, signal),
    enabled: sessionId !== undefined,
    refetchInterval: running ? false : 2000,
  });

  // Another session (New chat, a link) starts from its own state; the first id of a new chat keeps its run.
  const previousSession = useRef(sessionId);
  useEffect(() => {
    if (previousSession.current !== undefined && previousSession.current !== sessionId) setShown(undefined);
    previousSession.current = sessionId;
  }, [sessionId]);
  useEffect(() => {
    const detail = session.data?.session;
    if (detail === undefined) return;
    setChoice((current) =>
      current.agent === '' && current.model === '' ? { agent: detail.agent ?? '', model: detail.model ?? '' } : current,
    );
  }, [session.data?.session]);
  useEffect(() => {
    if (running) return;
    const live = (runs.data?.runs ?? []).filter(isLive).sort((a, b) => a.createdAt - b.createdAt)[0];
    if (live !== undefined && live.id !== shown?.id) setShown({ id: live.id, createdAt: live.createdAt });
  }, [runs.data, running, shown?.id]);

  // Follow the streaming answer while the reader is at the bottom; scrolling up stops following.
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      following.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const lastEventId = stream.view?.lastEventId;
  useEffect(() => {
    if (lastEventId !== undefined && running && following.current)
      window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [lastEventId, running]);

  const send = useMutation({
    mutationFn: async (text: string) => {
      if (running && stream.view !== undefined) {
        await injectMessage(stream.view.runId, text);
        return;
      }
      const options = {
        ...(choice.agent === '' ? {} : { agent: choice.agent }),
        ...(choice.model === '' ? {} : { model: choice.model }),
      };
      let id = sessionId;
      if (id === undefined) id = (await createSession({ ...options, title: text.slice(0, 80) })).id;
      const run = await startRun(id, { input: text, ...options });
      setShown({ id: run.id, createdAt: run.createdAt });
      void queryClient.invalidateQueries({ queryKey: ['session', id] });
      if (sessionId === undefined) navigate(`/chat/${encodeURIComponent(id)}`);
    },
  });
  const cancel = useMutation({
    mutationFn: () => cancelRun((stream.view as NonNullable<typeof stream.view>).runId),
  });

  const messages = (session.data?.messages ?? []).filter(
    (entry) => shown === undefined || entry.createdAt === undefined || entry.createdAt < shown.createdAt,
  );
  const subAgentSessions = session.data?.subAgentSessions ?? {};
  const question = stream.view?.questions[0];
  const empty = messages.length === 0 && stream.view === undefined;

  return (
    <div className="chat-page">
      <PageHeader title={session.data?.session.title || (sessionId === undefined ? 'Chat' : `Chat ${sessionId}`)}>
        {sessionId === undefined ? null : (
          <>
            <Link className="btn btn-ghost" to={`/sessions/${encodeURIComponent(sessionId)}`}>
              Open in Sessions
            </Link>
            <Link className="btn" to="/chat">
              New chat
            </Link>
          </>
        )}
      </PageHeader>
      <RunPicker agents={agents.data} models={models.data} choice={choice} onChange={setChoice} disabled={running} />
      <ErrorNotice error={agents.error} label="Agents could not be loaded" />
      <ErrorNotice error={models.error} label="Models could not be loaded" />
      <ErrorNotice error={session.error} label="The session could not be loaded" />
      <section className="chat-log" aria-label="Conversation">
        {session.isLoading ? <p className="muted">Loading the conversation…</p> : null}
        {empty && !session.isLoading ? (
          <p className="muted chat-empty">
            {sessionId === undefined
              ? 'Start a conversation: pick an agent and a model (or keep the defaults) and write a message.'
              : 'No messages in this session yet: write the first one.'}
          </p>
        ) : null}
        <HistoryView messages={messages} subAgentSessions={subAgentSessions} />
        {stream.view === undefined ? null : <RunTranscript view={stream.view} subAgentSessions={subAgentSessions} />}
        {stream.reconnecting ? (
          <p role="status" className="notice">
            The connection dropped: reconnecting…
          </p>
        ) : null}
        <ErrorNotice error={stream.error} label="The run's stream failed" />
      </section>
      <ErrorNotice error={send.error} label={running ? 'The message was not delivered' : 'The run did not start'} />
      <ErrorNotice error={cancel.error} label="The run was not cancelled" />
      <Composer
        running={running}
        pending={send.isPending}
        onSend={(text) => send.mutateAsync(text)}
        onCancel={() => cancel.mutate()}
        cancelling={cancel.isPending}
      />
      {question === undefined || stream.view === undefined ? null : (
        <QuestionDialog key={question.questionId} runId={stream.view.runId} question={question} />
      )}
    </div>
  );
}
