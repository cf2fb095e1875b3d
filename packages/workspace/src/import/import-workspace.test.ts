import { describe } from 'vitest';
import { importScenario } from './import-scenario.test-support.js';

describe('importBoxAgntsWorkspace (SQLite store)', () => {
  importScenario();
});
