import type { AgentListJson, ModelListJson } from '../../../../src/http/api-types/index.js';

export interface RunChoice {
  agent: string;
  model: string;
}

/** The agent and the model the next message runs with ('' = the workspace's default). */
export function RunPicker({
  agents,
  models,
  choice,
  onChange,
  disabled,
}: {
  agents: AgentListJson | undefined;
  models: ModelListJson | undefined;
  choice: RunChoice;
  onChange: (choice: RunChoice) => void;
  disabled: boolean;
}) {
  const visible = (agents?.agents ?? []).filter((agent) => agent.visible);
  return (
    <div className="row chat-picker">
      <label className="field">
        <span>Agent</span>
        <select
          value={choice.agent}
          disabled={disabled}
          onChange={(event) => onChange({ ...choice, agent: event.target.value })}
        >
          <option value="">Default{agents === undefined ? '' : ` (${agents.defaultAgent})`}</option>
          {visible.map((agent) => (
            <option key={agent.name} value={agent.name}>
              {agent.name}
              {agent.description === '' ? '' : ` — ${agent.description.slice(0, 60)}`}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Model</span>
        <select
          value={choice.model}
          disabled={disabled}
          onChange={(event) => onChange({ ...choice, model: event.target.value })}
        >
          <option value="">Default{models === undefined ? '' : ` (${models.defaultModel})`}</option>
          {(models?.models ?? []).map((model) => (
            <option key={model.id} value={model.id}>
              {model.name === undefined || model.name === '' ? model.id : `${model.name} (${model.id})`}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
