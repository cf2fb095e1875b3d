import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { ADAPTER_ROLES, adapterFolderProblems, checkAdapterFolders } from './check-adapter-files.mjs';

const roles = Object.keys(ADAPTER_ROLES as Record<string, string>);

/** A folder that follows the scheme: the nine role files, their tests, the conformance suite. */
function complete(prefix: string): string[] {
  return [
    ...roles.flatMap((role) => [`${prefix}-${role}.ts`, `${prefix}-${role}.test.ts`]),
    `${prefix}.conformance.test.ts`,
  ];
}

describe('check-adapter-files', () => {
  it('accepts a folder with the nine role files, their tests and extra files of the same prefix', () => {
    expect(
      adapterFolderProblems('gemini', [...complete('gemini'), 'gemini-schema.ts', 'gemini.faults.test.ts']),
    ).toEqual([]);
    expect(adapterFolderProblems('anthropic-messages', complete('anthropic'))).toEqual([]);
  });

  it('names a missing role file and a missing test', () => {
    const files = complete('ollama').filter(
      (file) => file !== 'ollama-finish-reason.ts' && file !== 'ollama-usage.test.ts',
    );
    expect(adapterFolderProblems('ollama', files)).toEqual([
      "ollama: missing ollama-finish-reason.ts (the vendor's stop reason mapped to FinishReason)",
      'ollama: missing ollama-usage.test.ts',
    ]);
  });

  it('refuses the three spellings of one role that the issue found', () => {
    const files = [
      ...complete('openai-chat').filter((file) => !file.startsWith('openai-chat-finish-reason')),
      'map-finish-reason.ts',
      'map-finish-reason.test.ts',
    ];
    expect(adapterFolderProblems('openai-chat', files)).toEqual([
      "openai-chat: missing openai-chat-finish-reason.ts (the vendor's stop reason mapped to FinishReason)",
      'openai-chat: map-finish-reason.ts does not start with "openai-chat-" (name every file of the folder <prefix>-<what>.ts)',
      'openai-chat: map-finish-reason.test.ts does not start with "openai-chat-" (name every file of the folder <prefix>-<what>.ts)',
    ]);
  });

  it('lets the conformance suite stand in for the provider test, and requires the suite', () => {
    const withoutProviderTest = complete('cohere').filter((file) => file !== 'cohere-provider.test.ts');
    expect(adapterFolderProblems('cohere-v2', withoutProviderTest)).toEqual([]);
    const withoutSuite = withoutProviderTest.filter((file) => file !== 'cohere.conformance.test.ts');
    expect(adapterFolderProblems('cohere-v2', withoutSuite)).toEqual([
      'cohere-v2: missing cohere-provider.test.ts',
      'cohere-v2: missing cohere.conformance.test.ts (the shared adapter contract suite)',
    ]);
  });

  it("passes on the repository's adapter folders", () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    expect(checkAdapterFolders(join(root, 'packages', 'api', 'src', 'adapters'))).toEqual([]);
  });
});
