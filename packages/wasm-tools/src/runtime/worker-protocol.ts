/** The messages between the host and a worker process (worker.mjs). Internal to the runtime. */

/** Where a worker finds a transpiled component. */
export interface ComponentRef {
  hash: string;
  dir: string;
  entry: string;
}

/** One unit of work for a worker. */
export interface WorkerJob {
  kind: 'describe' | 'function' | 'command';
  component: ComponentRef;
  /** Host folder preopened at `/`; none for `describe`. */
  root?: string;
  readOnly: boolean;
  /** The path policy every guest filesystem operation is checked against (patterns relative to the root). */
  policy: GuestPathPolicy;
  /** The only environment variables the guest sees. */
  env: Record<string, string>;
  /** argv of a command (argv[0] = tool name). */
  args?: string[];
  toolName?: string;
  /** JSON text of the input (function tools). */
  input?: string;
  maxOutputBytes: number;
  /** Outgoing HTTP of a command through the host's egress endpoint (network tools only). */
  http?: { port: number; token: string };
}

/** The protected and secret patterns of a guest's root (the host policy's, see `PathPolicyOptions`). */
export interface GuestPathPolicy {
  protectedPaths: readonly string[];
  secretPaths: readonly string[];
}

/** A tool output as a function component returned it. */
export interface GuestToolOutput {
  content: string;
  images: Array<{ mediaType: string; data: string }>;
  isError: boolean;
  metadata: string | null;
}

/** Captured stdio of the call (capped, head + tail). */
export interface CapturedOutput {
  stdout: string;
  stderr: string;
}

/** How a job ended. `host` failures come from the pool (deadline, crash, abort), not the guest. */
export type WorkerOutcome =
  | ({ ok: true; descriptors: unknown } & CapturedOutput)
  | ({ ok: true; output: GuestToolOutput } & CapturedOutput)
  | ({ ok: true; status: 'ok' | 'err' } & CapturedOutput)
  | ({ ok: false; kind: 'exit'; code: number; message: string } & CapturedOutput)
  | ({ ok: false; kind: 'trap' | 'component-error'; message: string } & CapturedOutput)
  | { ok: false; kind: 'timeout' | 'crash' | 'aborted' | 'closed' | 'host'; message: string };
