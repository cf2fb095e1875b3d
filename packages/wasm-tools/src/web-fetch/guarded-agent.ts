import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { Agent, buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';

/** Resolves a host name to its addresses (all of them); the default is the system resolver. */
export type WebFetchLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const BLOCKED_ADDRESS_MARKER: unique symbol = Symbol.for('boxagnts.wasm-tools.blocked_address');

/** A connection refused because the host resolved to (or connected to) an address the policy blocks. */
export class BlockedAddressError extends Error {
  readonly [BLOCKED_ADDRESS_MARKER] = true;
  readonly code = 'E_BLOCKED_ADDRESS';
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string, reason: string) {
    super(`${hostname} resolves to ${address} (${reason}); web_fetch only connects to public addresses.`);
    this.name = 'BlockedAddressError';
    this.hostname = hostname;
    this.address = address;
  }
}

/** Finds a {@link BlockedAddressError} in an error or its `cause` chain (undici may wrap socket errors). */
export function findBlockedAddressError(error: unknown): BlockedAddressError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ((current as Record<symbol, unknown>)[BLOCKED_ADDRESS_MARKER] === true) return current as BlockedAddressError;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The system resolver, returning every address (IPv4 and IPv6) in the resolver's order. */
export const systemLookup: WebFetchLookup = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type NetLookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves with `lookup`, refuses the connection when ANY resolved
 * address is blocked (a name that also points at 127.0.0.1 is an attack, not a fallback), and
 * hands only checked addresses to the socket: there is no second resolution to rebind.
 */
function guardedNetLookup(lookup: WebFetchLookup, policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: NetLookupCallback): void => {
    lookup(hostname)
      .then((addresses) => {
        for (const { address } of addresses) {
          const reason = policy.check(address);
          if (reason !== undefined) throw new BlockedAddressError(hostname, address, reason);
        }
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((entry) => entry.family === options.family)
            : addresses;
        if (wanted.length === 0)
          throw Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' });
        return wanted.map((entry) => ({ address: entry.address, family: entry.family }));
      })
      .then(
        (wanted) => {
          const [first] = wanted;
          if (options.all === true || first === undefined) callback(null, wanted);
          else callback(null, first.address, first.family);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
      );
  };
}

/** Options for {@link createGuardedAgent}. */
export interface GuardedAgentOptions {
  policy: AddressPolicy;
  lookup?: WebFetchLookup;
  /** Connect, headers and body timeouts of the agent (the caller still enforces an overall deadline). */
  timeoutMs: number;
}

/**
 * An undici Agent whose every connection is checked twice: the resolved addresses before the
 * socket opens (custom `lookup`), and the socket's actual remote address once connected (covers IP
 * literals, which skip the lookup). Blocked connections fail with {@link BlockedAddressError}.
 *
 * @example
 * const agent = await createGuardedAgent({ policy: createAddressPolicy(), timeoutMs: 10_000 });
 * await request('https://example.com', { dispatcher: agent });
 */
export async function createGuardedAgent(options: GuardedAgentOptions): Promise<Agent> {
  // undici loads on the first fetch, not when the package is imported.
  const { Agent, buildConnector } = await import('undici');
  const { policy } = options;
  const baseConnect = buildConnector({
    timeout: options.timeoutMs,
    lookup: guardedNetLookup(options.lookup ?? systemLookup, policy),
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (connectOptions, callback) => {
    baseConnect(connectOptions, (...args) => {
      const [error, socket] = args;
      if (error !== null) {
        callback(error, null);
        return;
      }
      const remote = socket.remoteAddress;
      const reason = remote === undefined ? 'no remote address' : policy.check(remote);
      if (reason !== undefined) {
        socket.destroy();
        callback(new BlockedAddressError(connectOptions.hostname, remote ?? 'unknown', reason), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({
    connect,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: options.timeoutMs,
  });
}
