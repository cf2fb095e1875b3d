import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { PROTOCOL_IDS } from './protocol.js';
import { CONTRACTS, parse, renderErrorOverride } from './protocol.test-support.js';

// What every protocol renderer does alike, read through each protocol's adapter in
// protocol-test-support.ts. Wire details (event names, field layouts, framing, vendor error
// bodies) stay in the per-protocol test files.

describe.each(PROTOCOL_IDS.map((id) => [id, CONTRACTS[id]] as const))('%s renderer contract', (_, contract) => {
  const { renderer } = contract;

  it('takes its own route with the model and stream the request names', () => {
    for (const [method, path, body, expected] of contract.routes) {
      expect(renderer.matchRoute(method, path, body), `${method} ${path}`).toEqual(expected);
    }
  });

  it('leaves other routes and methods alone', () => {
    for (const [method, path, body] of contract.foreignRoutes) {
      expect(renderer.matchRoute(method, path, body), `${method} ${path}`).toBeUndefined();
    }
  });

  it('maps neutral stop reasons to the vendor value', () => {
    for (const [reason, expected] of contract.stopReasons) {
      if (contract.mapStopReason) expect(contract.mapStopReason(reason), reason).toEqual(expected);
      const body = renderer.renderResponse(contract.turn({ stopReason: reason }), contract.request());
      expect(contract.stopReasonOf(body), reason).toEqual(expected);
    }
  });

  it('sends a raw stop reason verbatim', () => {
    const { value, read = contract.stopReasonOf } = contract.rawStopReason;
    const body = renderer.renderResponse(contract.turn({ rawStopReason: value }), contract.request());
    expect(read(body)).toBe(value);
  });

  it('gives every error kind its status and a JSON body with a message', () => {
    for (const [kind, status] of Object.entries(contract.errorStatuses) as [MockErrorKind, number][]) {
      const response = renderer.renderError({ error: kind }, contract.request());
      expect(response.status, kind).toBe(status);
      expect(typeof contract.errorMessageOf(parse(response.body)), kind).toBe('string');
    }
  });

  it('honours status, message and retry-after overrides', () => {
    const { error } = contract.errorOverride;
    const response = renderErrorOverride(contract);
    expect(response.status).toBe(error.status);
    expect(response.headers['retry-after']).toBe(
      error.retryAfterSeconds === undefined ? undefined : String(error.retryAfterSeconds),
    );
    expect(contract.errorMessageOf(parse(response.body))).toBe(error.message);
  });

  it('sends no retry-after unless asked', () => {
    expect(renderer.renderError({ error: 'server' }, undefined).headers['retry-after']).toBeUndefined();
  });

  it('keeps alive the vendor way and names the request id header', () => {
    expect(renderer.keepAlive()).toEqual(contract.keepAlive);
    expect(renderer.responseHeaders('req_1')).toEqual(
      contract.requestIdHeader === undefined ? {} : { [contract.requestIdHeader]: 'req_1' },
    );
  });
});
