// The plugin's public door: the default export is what tools-manager's loadPlugin runs.
export { DEFAULT_MAX_INPUT_LENGTH, textToolsOptionsSchema, textToolsPlugin as default } from './plugin.js';
export { createSlugifyTool, slugify } from './slugify.js';
export { countText, createWordCountTool, type TextCounts } from './word-count.js';
