import { describe, expect, it } from 'vitest';
import * as entry from './index.js';

// The package's main entry offers what users call and nothing else: a name added here is a
// public API to keep, a name removed a breaking change. Types are checked by the compiler.
const PUBLIC_VALUES = [
  // Defining a tool
  'defineTool',
  'ToolDefinitionError',
  'errorResult',
  'resultText',
  'textResult',
  // Running a call
  'executeTool',
  'executeToolThen',
  'executeValidatedTool',
  'validateToolInput',
  'checkPlanMode',
  'ACCESS_LEVELS',
  'accessAllows',
  // Sending tools to a model
  'toolInputJsonSchema',
  'toToolDefinition',
  // Native tools
  'agentTool',
  'agentStatusTool',
  'askUserQuestionTool',
  'briefTool',
  'createBriefTool',
  'ENTER_PLAN_MODE_TOOL_NAME',
  'EXIT_PLAN_MODE_TOOL_NAME',
  'enterPlanModeTool',
  'exitPlanModeTool',
  'sleepTool',
  'createToolSearchTool',
  // Skills
  'createSkillTool',
  'builtinSkillsFolder',
  'defaultSkillFolders',
  'loadSkills',
  'SKILL_FILE',
  'expandSkill',
  'formatSkillListing',
  // Confined instruction files
  'isInsideFolder',
  'readConfinedFile',
];

describe('@boxagnts/tools entry', () => {
  it('exports exactly the public names', () => {
    expect(Object.keys(entry).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  it('keeps the tool-search ranking and skill parsing internals inside the package', () => {
    for (const internal of ['splitWords', 'RANK_WEIGHTS', 'queryTerms', 'rankTools', 'scoreTool', 'splitArguments']) {
      expect(Object.keys(entry)).not.toContain(internal);
    }
  });
});
