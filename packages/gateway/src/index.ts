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
export { CHAT_HELP, type ChatSession, type ChatSessionOptions, createChatSession } from './cli/chat-session.js';
export { type CronClock, systemClock } from './cron/cron-clock.js';
export { type CronRunHost, type CronRunRecord, type CronRunRequest, isFinalRunStatus } from './cron/cron-run-host.js';
export { CronScheduler, type CronSchedulerOptions, cronDedupeKey, cronSessionId } from './cron/cron-scheduler.js';
export {
  createGateway,
  type Gateway,
  type GatewayOptions,
  type RunningGateway,
  startGateway,
} from './gateway.js';
export {
  GATEWAY_ERROR_REASONS,
  GatewayError,
  type GatewayErrorOptions,
  type GatewayErrorReason,
  isGatewayError,
} from './gateway-error.js';
export type * from './http/api-types/index.js';
export { createGatewayApp, type GatewayAppOptions, type GatewayLog } from './http/create-app.js';
export type { GatewayEnv, GatewayServices } from './http/gateway-env.js';
export { maskConfig } from './http/mask-config.js';
export { cronRoutes } from './http/routes-cron.js';
export { MAX_FILE_READ_BYTES } from './http/routes-files.js';
export { sitesRoutes } from './http/routes-sites.js';
export { finishReason } from './openai/openai-routes.js';
export { InProcessRunQueue, type RunQueue, type RunWorker } from './queue/run-queue.js';
export { LocalRunSignals, type RunControl, type RunSignals } from './queue/run-signals.js';
export type { RunsOptions } from './runs/run-backend.js';
export {
  RUN_END_EVENT,
  type RunChange,
  RunManager,
  type RunManagerOptions,
  type StartRunRequest,
} from './runs/run-manager.js';
export {
  type BusyPolicy,
  type CreatedRun,
  type FinishedRun,
  type FinishGuard,
  isFinalStatus,
  type NewRun,
  type RestartPolicy,
  type RunEvent,
  type RunFinal,
  type RunListOptions,
  type RunLog,
  type RunOrigin,
  type RunRecord,
  type RunStatus,
} from './runs/run-types.js';
export { openSqliteRunLog } from './runs/sqlite-run-log.js';
export { createRateLimiter, type RateLimiter } from './security/rate-limiter.js';
export { type GuardOptions, securityGuard } from './security/security-middleware.js';
export { isLoopbackHost, SECURITY_DEFAULTS, type SecurityOptions } from './security/security-options.js';
export { openTokenStore, type TokenInfo, type TokenStore } from './security/token-store.js';
export { listenSites, type SitesListener, sitesPort } from './sites/listen-sites.js';
export { MAX_SITE_URL_LENGTH, parseSiteRequestPath, type SiteRequestPath } from './sites/site-request-path.js';
export { createSitesHandler, type SitesHandler, type SitesHandlerOptions } from './sites/sites-server.js';
export { type LoadedTelemetry, loadTelemetry, type TelemetryOption } from './telemetry/load-telemetry.js';
export { createRunSpans, type OpenTelemetryApi, type RunSpanContext, type RunSpans } from './telemetry/run-spans.js';
