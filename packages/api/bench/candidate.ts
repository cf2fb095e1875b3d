import type { AssembledText, BenchProtocol } from './protocols.js';

/** Which stream to consume: its protocol and the model name that routes it on the mock server. */
export interface StreamTarget {
  protocol: BenchProtocol;
  model: string;
}

/** What consuming one stream produced: the assembled text (checked against the lower bound). */
export interface ConsumedStream extends AssembledText {
  /** Wire events seen; only the lower bound counts them. */
  events?: number;
  /** Body chunks read from the socket; only the lower bound counts them. */
  reads?: number;
}

/** A client set up against one server: consumes one whole stream per call. */
export interface Runner {
  run(target: StreamTarget): Promise<ConsumedStream>;
  close?(): Promise<void>;
}

/** One client measured by the bench. Adding an adapter is adding one of these to the registry. */
export interface Candidate {
  /** `lower-bound`, `sdk:<name>`, `adapter:<protocol>` or `reference:<name>`; what `--candidate` filters on. */
  id: string;
  /** `reference` candidates are diagnostics: they run only when `--candidate` names them. */
  kind: 'lower-bound' | 'sdk' | 'adapter' | 'reference';
  /** The protocols it speaks; it is measured on every stream of these protocols. */
  protocols: readonly BenchProtocol[];
  setup(serverUrl: string): Runner | Promise<Runner>;
}
