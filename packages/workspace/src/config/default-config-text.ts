/** The name of a workspace's config file (JSON with comments and trailing commas). */
export const CONFIG_FILE_NAME = 'boxagnts.json';

/**
 * The config file `openWorkspace` writes into a new workspace: the defaults spelled out, and every
 * other section as a commented example, so users see what they can set.
 */
export const DEFAULT_CONFIG_TEXT = `// BoxAgnts workspace configuration: JSON with comments.
// Keys never go here: keep them in .boxagnts/secrets.json (mode 0600) and write
// { "secret": "<name>" }, or read them from the environment with { "env": "<VARIABLE>" }.
// "\${env:NAME}" inside any string is replaced by that variable (an unset one is an error).
{
  // The default model, "provider/model".
  "model": "anthropic/claude-sonnet-4-6",

  // Providers: base URL overrides and where their keys come from. Without "apiKey" a provider uses
  // the secret named like it (e.g. "anthropic"), else its usual variable (ANTHROPIC_API_KEY, ...).
  "providers": {
    // "anthropic": { "apiKey": { "env": "MY_ANTHROPIC_KEY" } },
    // "openai": { "apiKey": { "secret": "openai-work" } },
    // "openai-compatible": { "baseUrl": "http://127.0.0.1:8000/v1" }
  },

  // Models for particular jobs; each falls back to "model".
  // "models": { "small": "anthropic/claude-haiku-4-5", "compaction": "anthropic/claude-haiku-4-5" },

  // Agents: override the built-ins (build, plan, explore) or add your own.
  "agents": {
    // "reviewer": {
    //   "description": "Reviews changes and points out bugs.",
    //   "access": "read-only",            // full | read-only | search-only
    //   "model": "anthropic/claude-sonnet-4-6",
    //   "temperature": 0.2,
    //   "prompt": "You review code. Be specific.",
    //   "maxTurns": 30,
    //   "visible": true,
    //   "color": "magenta"
    // }
  },
  "defaultAgent": "build",

  // Permissions: mode plan | default | accept-edits | bypass, and rules like "bash(npm test:*)".
  "permissions": { "mode": "default", "allow": [], "ask": [], "deny": [] },

  // Hosts web tools may reach.
  "network": { "allowedHosts": [] },

  // MCP servers as tool sources.
  "mcpServers": {
    // "files": { "transport": { "type": "stdio", "command": "mcp-files", "args": ["--root", "root"] } }
  },

  // Skill folders, relative to this file.
  "skills": { "folders": ["skills"] },

  // Command hooks run in this folder; keep their scripts here (e.g. hooks/), never in root/.
  // "hooks": { "beforeTool": [{ "matcher": "bash", "command": "./hooks/check.sh" }] },

  // default | concise | explanatory | a file in output-styles/.
  "outputStyle": "default",

  "gateway": {
    "host": "127.0.0.1",
    "port": 7433
    // "tokens": { "ci": { "secret": "gateway-ci" } }
    // Static sites agents write to root/sites/<name>/, each served at http://<name>.localhost:7434/:
    // "sites": { "port": 7434, "domain": "localhost", "spa": ["my-app"] }
  },

  "cron": { "enabled": true, "timezone": "UTC", "timeoutMs": 600000 },

  // The database: a SQLite file (default) or PostgreSQL shared by several gateways:
  // "store": { "kind": "postgres", "url": { "secret": "database-url" } }
  "store": { "kind": "sqlite", "path": ".boxagnts/workspace.db" }
}
`;
