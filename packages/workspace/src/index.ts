// The public surface of @boxagnts/workspace. Explicit named exports only.
export {
  AGENTS_MD_FILE_MAX_BYTES,
  AGENTS_MD_MAX_BYTES,
  type AgentsMd,
  type AgentsMdSource,
  type AgentsMdWarning,
  type ComposeAgentsMdOptions,
  composeAgentsMd,
} from './config/agents-md.js';
export { type AtomicWriteOperations, type AtomicWriteOptions, writeFileAtomic } from './config/atomic-write.js';
export {
  type AgentConfig,
  CONFIG_DEFAULTS,
  type HooksConfig,
  type ManagedAgentPreset,
  type McpServerEntry,
  type PermissionModeName,
  type ProviderConfig,
  type ResolvedConfig,
  type SiteComponentSettings,
  type SitesSettings,
  type StoreLocation,
} from './config/config-defaults.js';
export { ConfigError, type ConfigErrorOptions, type ConfigErrorReason, isConfigError } from './config/config-error.js';
export { type BoxagntsConfig, configSchema } from './config/config-schema.js';
export { CONFIG_FILE_NAME, DEFAULT_CONFIG_TEXT } from './config/default-config-text.js';
export { CONFIG_MAX_DEPTH } from './config/jsonc-depth.js';
export type { KeyReference } from './config/key-reference.js';
export { type LoadConfigOptions, loadConfig, parseConfigText } from './config/load-config.js';
export {
  BUILTIN_OUTPUT_STYLES,
  type LoadOutputStylesOptions,
  loadOutputStyles,
  OUTPUT_STYLE_MAX_BYTES,
  type OutputStyle,
  parseOutputStyle,
} from './config/output-styles.js';
export { type KeySources, resolveKeyReference } from './config/resolve-key-reference.js';
export { isSecret, mask, Secret } from './config/secret.js';
export { SecretStore, type SecretStoreOptions } from './config/secret-store.js';
export { type JsonValue, setConfigValue, type UpdateConfigOptions, updateConfig } from './config/update-config.js';
export {
  CRON_ERROR_REASONS,
  CronError,
  type CronErrorOptions,
  type CronErrorReason,
  isCronError,
} from './cron/cron-error.js';
export { MAX_CRON_TIMEOUT_MS } from './cron/cron-job-input.js';
export {
  type CronSchedule,
  canonicalTimezone,
  formatInTimezone,
  parseCronSchedule,
} from './cron/cron-schedule.js';
export { MAX_CRON_PREVIEW } from './cron/cron-store.js';
export type {
  CronCatchUpPolicy,
  CronClockOption,
  CronJob,
  CronJobChange,
  CronJobChanges,
  CronJobInput,
  CronOccurrence,
  CronOverlapPolicy,
  CronRunChanges,
  CronRunEntry,
  CronRunStatus,
  CronRunTrigger,
  CronSpec,
  CronStore,
} from './cron/cron-types.js';
export {
  BOXAGNTS_STATE_MARKERS,
  BoxAgntsWorkspaceError,
  boxAgntsStateFiles,
  isBoxAgntsWorkspaceError,
} from './import/boxagnts-workspace-error.js';
export { convertBoxAgntsSession, IMPORT_SESSION_ID_PATTERN } from './import/convert-session.js';
export { mapBoxAgntsProviderId, mapModelReference, type ProviderIdMapping } from './import/convert-settings.js';
export {
  type BoxAgntsImportReport,
  type ImportAction,
  type ImportBoxAgntsOptions,
  type ImportItem,
  type ImportItemKind,
  importBoxAgntsWorkspace,
} from './import/import-workspace.js';
export {
  checkSiteUser,
  hashSiteCredentials,
  parseSiteCredentials,
  type SiteCredentials,
  siteAuthSecretName,
  verifySiteCredentials,
} from './sites/site-auth.js';
export { checkSiteName, isSiteName, SITE_NAME_PATTERN } from './sites/site-name.js';
export { createSiteStore, type SiteRecord, type SiteStore } from './sites/site-store.js';
export { type SiteInfo, type WorkspaceSites, workspaceSites } from './sites/workspace-sites.js';
export { LATEST_SCHEMA_VERSION } from './store/migrate.js';
export { type OpenStoreOptions, openStore } from './store/open-store.js';
export type { PostgresBackendOptions } from './store/postgres-backend.js';
export { DEFAULT_CRON_TIMEOUT_MS } from './store/schema-v5.js';
export { SESSION_EXPORT_FORMAT, SESSION_EXPORT_VERSION } from './store/session-jsonl.js';
export { SNIPPET_MARKS } from './store/session-search.js';
export { DEFAULT_MAX_MESSAGE_BYTES } from './store/session-writes.js';
export type { SqliteBackendOptions } from './store/sqlite-backend.js';
export {
  isStoreError,
  STORE_ERROR_REASONS,
  StoreError,
  type StoreErrorOptions,
  type StoreErrorReason,
} from './store/store-error.js';
export type {
  MessageSearchHit,
  SessionRecord,
  StoreConfig,
  StoredMessage,
  UsageGroupBy,
  UsageRecord,
  UsageReportRow,
  UsageStore,
  WorkspaceSessionStore,
  WorkspaceStore,
} from './store/store-types.js';
export { type OpenWorkspaceOptions, openWorkspace } from './workspace/open-workspace.js';
export type { Workspace } from './workspace/workspace.js';
export type { WorkspaceAgent } from './workspace/workspace-agents.js';
export { silentLogger, type WorkspaceLogger } from './workspace/workspace-logger.js';
export { type WorkspacePaths, workspacePaths } from './workspace/workspace-paths.js';
