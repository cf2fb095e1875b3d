import { join } from 'node:path';
import { toolInputJsonSchema } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsTools, FS_TOOL_SPECS } from './create-fs-tools.js';
import { isFsToolsError } from './fs-tools-error.js';
import {
  callTool,
  contextFor,
  type FsToolsFixture,
  makeTempRoot,
  removeTempRoot,
  startFsTools,
  textOf,
} from './test-support.js';

let fixture: FsToolsFixture;
let root: string;

beforeAll(async () => {
  fixture = await startFsTools();
  root = await makeTempRoot({ 'a.txt': 'a\n' });
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

describe('createFsTools', () => {
  it('gives the five tools with their permissions', () => {
    expect([...fixture.tools.keys()]).toEqual(['read', 'write', 'edit', 'glob', 'grep']);
    expect([...fixture.tools.values()].map((tool) => tool.permission)).toEqual([
      'read-only',
      'write',
      'write',
      'read-only',
      'read-only',
    ]);
  });

  it('shows the model JSON Schemas with a description on every field', () => {
    for (const tool of fixture.tools.values()) {
      const schema = toolInputJsonSchema(tool) as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type).toBe('object');
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${name}`).toMatch(/\w{3,}/);
      }
      expect(tool.description.length).toBeGreaterThan(100);
    }
    const grep = toolInputJsonSchema(fixture.tools.get('grep') as never) as { required?: string[]; properties: object };
    expect(grep.required).toEqual(['pattern']);
    expect(Object.keys(grep.properties)).toEqual([
      'pattern',
      'path',
      'glob',
      'type',
      'output_mode',
      'context_before',
      'context_after',
      'context',
      'case_insensitive',
      'line_numbers',
      'head_limit',
      'multiline',
    ]);
  });

  it('matches the fields the component itself describes', async () => {
    const guestTools = await fixture.runtime.loadFunctionComponent({ path: fixture.componentPath });
    for (const spec of FS_TOOL_SPECS) {
      const guest = guestTools.find((tool) => tool.name === spec.name);
      expect(guest?.permission).toBe(spec.permission);
      const guestFields = Object.keys(
        (toolInputJsonSchema(guest as never) as { properties: object }).properties,
      ).sort();
      const hostFields = Object.keys((spec.inputSchema as unknown as { shape: object }).shape).sort();
      expect(guestFields, spec.name).toEqual(hostFields);
    }
  });

  it('refuses a component that lacks one of the tools', async () => {
    const runtime = {
      loadFunctionComponent: async () => [...fixture.tools.values()].filter((tool) => tool.name !== 'grep'),
    };
    const error = await createFsTools({ runtime, component: { path: fixture.componentPath } }).catch(
      (caught: unknown) => caught,
    );
    expect(isFsToolsError(error)).toBe(true);
    expect((error as Error).message).toContain('no "grep" tool');
  });

  it('answers with an error result when the context root does not exist', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'a.txt' }, join(root, 'missing-folder'));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('working folder cannot be used');
  });

  it('validates input before anything runs', async () => {
    const result = await callTool(fixture, 'edit', { file_path: 'a.txt', old_string: 'a' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('new_string');
    const direct = await fixture.tools.get('read')?.execute({ file_path: 'a.txt' }, contextFor(root));
    expect(direct && textOf(direct)).toBe('     1\ta');
  });
});
