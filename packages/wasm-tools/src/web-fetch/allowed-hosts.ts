// The allowlist parser lives in @boxagnts/api (the lowest layer), so the workspace config, web_fetch,
// the shell's curl and component HTTP all accept one format.
export {
  ALLOWED_HOSTS_SYNTAX_URL,
  type AllowedHost,
  AllowedHostError,
  type AllowedHostPattern,
  type AllowedPortPattern,
  defaultPort,
  isUrlAllowed,
  normaliseAllowedHost,
  parseAllowedHost,
  parseAllowedHosts,
} from '@boxagnts/api';
