import { PageHeader } from '../../components/PageHeader';
import { AgentsMdSection } from './AgentsMdSection';
import { McpSection } from './McpSection';
import { ModelsSection } from './ModelsSection';
import { OutputStylesSection } from './OutputStylesSection';
import { PermissionsSection } from './PermissionsSection';
import { ProvidersSection } from './ProvidersSection';
import { TokensSection } from './TokensSection';
import './settings.css';

const SECTIONS = [
  { id: 'settings-providers', label: 'Providers' },
  { id: 'settings-models', label: 'Models' },
  { id: 'settings-permissions', label: 'Permissions' },
  { id: 'settings-mcp', label: 'MCP servers' },
  { id: 'settings-agents-md', label: 'AGENTS.md' },
  { id: 'settings-styles', label: 'Output styles' },
  { id: 'settings-tokens', label: 'Tokens' },
] as const;

/** The workspace's settings: providers and keys, models and prices, permissions, MCP, AGENTS.md, styles, tokens. */
export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" />
      <nav aria-label="Settings sections" className="settings-toc">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="stack">
        <ProvidersSection />
        <ModelsSection />
        <PermissionsSection />
        <McpSection />
        <AgentsMdSection />
        <OutputStylesSection />
        <TokensSection />
      </div>
    </>
  );
}
