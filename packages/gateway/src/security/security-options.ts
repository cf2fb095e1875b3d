/** The gateway's security settings; every default is the safe one. */
export interface SecurityOptions {
  /**
   * Require a bearer token on every route. Default: required unless the server binds only a
   * loopback address (127.0.0.1, ::1, localhost); a non-loopback bind without tokens refuses to start.
   */
  requireToken?: boolean;
  /** Host header values accepted besides loopback names and the bound host (DNS-rebinding guard). */
  allowedHosts?: readonly string[];
  /** Origins (`https://app.example`) allowed on state-changing routes and event streams besides the server's own. */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes; default 16 MiB. */
  maxBodyBytes?: number;
  /** Requests per minute per token (per client address without tokens); default 600. */
  requestsPerMinute?: number;
}

/** Defaults of {@link SecurityOptions}. */
export const SECURITY_DEFAULTS = { maxBodyBytes: 16 * 1024 * 1024, requestsPerMinute: 600 } as const;

/** Whether a host name or address is loopback only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
