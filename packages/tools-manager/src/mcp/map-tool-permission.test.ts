import { describe, expect, it } from 'vitest';
import { mapToolPermission } from './map-tool-permission.js';

describe('mapToolPermission', () => {
  it.each([
    ['no annotations', undefined, 'execute'],
    ['empty annotations', {}, 'execute'],
    ['read-only, closed world', { readOnlyHint: true, openWorldHint: false }, 'read-only'],
    ['read-only, open world', { readOnlyHint: true, openWorldHint: true }, 'network'],
    ['read-only, world not stated (spec default: open)', { readOnlyHint: true }, 'network'],
    ['destructive', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, 'execute'],
    ['destructive not stated (spec default: destructive)', { readOnlyHint: false, openWorldHint: false }, 'execute'],
    ['additive, closed world', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, 'write'],
    ['additive, open world', { readOnlyHint: false, destructiveHint: false, openWorldHint: true }, 'execute'],
    [
      'destructive hint ignored when read-only',
      { readOnlyHint: true, destructiveHint: true, openWorldHint: false },
      'read-only',
    ],
  ] as const)('%s -> %s', (_label, annotations, expected) => {
    expect(mapToolPermission(annotations)).toBe(expected);
  });
});
