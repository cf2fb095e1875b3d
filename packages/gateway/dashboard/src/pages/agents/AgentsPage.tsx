import { PageHeader } from '../../components/PageHeader';
import { AgentsTable } from './AgentsTable';
import { SkillsSection } from './SkillsSection';
import { ToolsSection } from './ToolsSection';
import './agents.css';

/** The workspace's agents with their access levels and models, the skills found, and each agent's tool set. */
export function AgentsPage() {
  return (
    <>
      <PageHeader title="Agents, skills, tools" />
      <AgentsTable />
      <SkillsSection />
      <ToolsSection />
    </>
  );
}
