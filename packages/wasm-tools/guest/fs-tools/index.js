// The fs-tools component: the WIT export `tool` (describe + run) for read, write, edit, glob, grep.
import { DESCRIPTORS } from './descriptors.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import { setExcludedPaths } from './walk.js';
import { FsError, resetRoot } from './wasi-fs.js';
import { writeTool } from './write.js';

const TOOLS = { read: readTool, write: writeTool, edit: editTool, glob: globTool, grep: grepTool };

// A WIT string must be valid Unicode: a lone surrogate (e.g. from a model's new_string echoed in
// an edit snippet) would trap the guest when the result is handed over, so it becomes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(text) {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

function output(result) {
  return {
    content: wellFormed(result.content),
    images: result.images ?? [],
    isError: result.isError === true,
    metadata: result.metadata === undefined ? null : wellFormed(JSON.stringify(result.metadata)),
  };
}

function parseInput(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FsError('invalid', '.', 'The tool input is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new FsError('invalid', '.', 'The tool input must be a JSON object.');
  return value;
}

export const tool = {
  describe() {
    return DESCRIPTORS;
  },
  run(name, input) {
    const run = TOOLS[name];
    if (run === undefined) throw `unknown tool "${name}": this component offers ${Object.keys(TOOLS).join(', ')}`;
    resetRoot();
    try {
      const parsed = parseInput(input);
      setExcludedPaths(parsed.exclude_paths);
      return output(run(parsed));
    } catch (error) {
      if (error instanceof FsError)
        return output({ content: error.message, isError: true, metadata: { code: error.code } });
      const detail = error?.message ? error.message : String(error);
      return output({ content: `${name} failed inside the sandbox: ${detail}`, isError: true });
    }
  },
};
