import {
  type AnyTool,
  agentStatusTool,
  agentTool,
  askUserQuestionTool,
  type BriefToolOptions,
  briefTool,
  createBriefTool,
  createSkillTool,
  enterPlanModeTool,
  exitPlanModeTool,
  type LoadSkillsOptions,
  type SkillCatalogue,
  sleepTool,
  type ToolSource,
} from '@boxagnts/tools';
import { catalogueFolders } from './catalogue-folders.js';

/** Options of {@link nativeToolSource}. */
export interface NativeToolSourceOptions {
  /**
   * Offer the `skill` tool over these skills: a catalogue from `loadSkills` (its skills' search
   * folders are searched) or the options `loadSkills` takes (`{ folders }`). Without it there is no
   * `skill` tool.
   */
  skills?: SkillCatalogue | LoadSkillsOptions;
  /** Where `brief` delivers its messages; default: the plain `briefTool`. */
  brief?: BriefToolOptions;
  /**
   * The name of the skill tool; default `skill`. BoxAgnts calls it `skill-tool`: use that name when
   * prompts or instructions written for BoxAgnts name it.
   */
  skillToolName?: string;
  /** Names of native tools to leave out (e.g. `['agent', 'agent_status']` for a sub-agent). */
  exclude?: readonly string[];
}

/** The search folders of a skills option, most specific first. */
function skillFolders(skills: SkillCatalogue | LoadSkillsOptions): readonly string[] {
  return 'folders' in skills ? skills.folders : catalogueFolders(skills);
}

/**
 * The native tools of `@boxagnts/tools` as a tool source (kind and name `native`): `ask_user_question`,
 * `brief`, `sleep`, `enter_plan_mode`, `exit_plan_mode`, `agent`, `agent_status`, and `skill` when
 * skills are given. `tool_search` is not here: the tool set adds it when it defers tools.
 *
 * @example
 * const toolSet = await createToolSet({
 *   sources: [nativeToolSource({ skills: { folders: defaultSkillFolders({ root }) }, exclude: ['sleep'] })],
 * });
 */
export function nativeToolSource(options: NativeToolSourceOptions = {}): ToolSource {
  const tools: AnyTool[] = [
    askUserQuestionTool,
    options.brief === undefined ? briefTool : createBriefTool(options.brief),
    sleepTool,
    enterPlanModeTool,
    exitPlanModeTool,
    agentTool,
    agentStatusTool,
  ];
  if (options.skills !== undefined) {
    const folders = skillFolders(options.skills);
    tools.push(
      createSkillTool(options.skillToolName === undefined ? { folders } : { folders, name: options.skillToolName }),
    );
  }
  const excluded = new Set(options.exclude ?? []);
  const offered = tools.filter((tool) => !excluded.has(tool.name));
  return {
    name: 'native',
    kind: 'native',
    load: async () => offered,
  };
}
