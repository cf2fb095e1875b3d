export { decodeEventStream, encodeEventStreamMessage } from './protocols/aws-eventstream.js';
export type {
  ErrorResponse,
  ParsedRequest,
  ProtocolId,
  ProtocolRenderer,
  ResolvedBlock,
  ResolvedError,
  ResolvedTurn,
  RouteMatch,
  WireEvent,
} from './protocols/protocol.js';
export { PROTOCOL_IDS } from './protocols/protocol.js';
export { MockScriptError, parseMockFault, parseMockScript } from './script/schema.js';
export type {
  MockBlock,
  MockChunking,
  MockErrorKind,
  MockFault,
  MockHttpErrorFault,
  MockMatch,
  MockReplay,
  MockRule,
  MockScript,
  MockStep,
  MockStopReason,
  MockTurn,
  MockUsage,
} from './script/types.js';
export { FAULT_HEADER, type MockServer, type MockServerOptions, startMockServer } from './server/mock-server.js';
export type { RecordedRequest } from './server/recorder.js';
export { MockReplayError } from './server/replay.js';
