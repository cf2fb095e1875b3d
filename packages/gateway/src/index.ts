// The public surface of @boxagnts/gateway. Explicit named exports only.
export type { AgentInput } from './agent/agent-input.js';
export {
  type Agent,
  type AgentRun,
  type AgentRunOptions,
  type CreateAgentOptions,
  createAgent,
} from './agent/create-agent.js';
export { readSystemLayers, type SystemLayers } from './agent/system-layers.js';
export { createUsageRecorder, type UsageRecorder } from './agent/usage-recorder.js';
export { createWorkspaceRegistry, type ProviderKeyState, providerKeyStates } from './agent/workspace-providers.js';
export {
  createWorkspaceToolSet,
  type WorkspaceToolSet,
  type WorkspaceToolSetOptions,
} from './agent/workspace-tool-set.js';
export {
  GATEWAY_ERROR_REASONS,
  GatewayError,
  type GatewayErrorOptions,
  type GatewayErrorReason,
  isGatewayError,
} from './gateway-error.js';
