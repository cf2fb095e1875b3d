import { executeTool, resultText } from '@boxagnts/tools';
import { isPluginLoadError, loadPlugin } from '@boxagnts/tools-manager';
import { describe, expect, it } from 'vitest';
import { countText } from './index.js';
import { EXAMPLE_ROOT, exampleContext, PLUGIN_PACKAGE, pluginTool, runExample } from './run-example.js';
import { slugify } from './slugify.js';

describe('the text-tools plugin, loaded by package name through tools-manager', () => {
  it('registers both tools and runs them through executeTool', async () => {
    const plugin = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT });
    expect(plugin).toMatchObject({ name: 'text-tools', version: '0.0.0', root: EXAMPLE_ROOT });
    expect(plugin.tools.map((entry) => [entry.name, entry.permission])).toEqual([
      ['word_count', 'read-only'],
      ['slugify', 'read-only'],
    ]);

    const counted = await executeTool(
      pluginTool(plugin, 'word_count'),
      { text: 'one two\nthree 👍🏽\n' },
      exampleContext(),
    );
    expect(counted.isError).toBeUndefined();
    expect(resultText(counted)).toBe('lines: 2, words: 4, characters: 16, bytes: 23');
    expect(counted.metadata).toEqual({ lines: 2, words: 4, characters: 16, bytes: 23 });

    const slug = await executeTool(
      pluginTool(plugin, 'slugify'),
      { text: '  Héllo, Wörld & Friends!  ', separator: '_' },
      exampleContext(),
    );
    expect(resultText(slug)).toBe('hello_world_friends');
  });

  it('turns a bad input into an error result the model can read', async () => {
    const plugin = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT });
    const wrongType = await executeTool(pluginTool(plugin, 'word_count'), { text: 42 }, exampleContext());
    expect(wrongType.isError).toBe(true);
    expect(resultText(wrongType)).toContain('Invalid input for tool "word_count":\n- text:');

    const nothingLeft = await executeTool(pluginTool(plugin, 'slugify'), { text: '!!! ???' }, exampleContext());
    expect(nothingLeft).toMatchObject({ isError: true });
    expect(resultText(nothingLeft)).toContain('no letters or digits');
  });

  it('applies the maxInputLength option to both tools', async () => {
    const plugin = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT, options: { maxInputLength: 10 } });
    for (const name of ['word_count', 'slugify']) {
      const tooLong = await executeTool(pluginTool(plugin, name), { text: 'x'.repeat(11) }, exampleContext());
      expect(tooLong.isError).toBe(true);
      expect(resultText(tooLong)).toContain('at most 10 characters (plugin option maxInputLength)');
      const fits = await executeTool(pluginTool(plugin, name), { text: 'x'.repeat(10) }, exampleContext());
      expect(fits.isError).toBeUndefined();
    }
  });

  it('fails the load with a message naming a bad option', async () => {
    const error = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT, options: { maxInputLength: -1 } }).catch(
      (reason: unknown) => reason,
    );
    expect(isPluginLoadError(error) && error.reason).toBe('setup-failed');
    expect((error as Error).message).toContain('maxInputLength:');
    const unknown = await loadPlugin(PLUGIN_PACKAGE, { from: EXAMPLE_ROOT, options: { maxLength: 5 } }).catch(
      (reason: unknown) => reason,
    );
    expect((unknown as Error).message).toContain('Unrecognized key');
  });

  it('prints what the start script prints', async () => {
    const lines: string[] = [];
    const run = await runExample((line) => lines.push(line));
    expect(lines).toEqual([
      'loaded plugin "text-tools" with tools: word_count, slugify',
      'word_count -> lines: 2, words: 8, characters: 52, bytes: 52',
      'slugify -> ecrire-des-plugins-pas-a-pas',
    ]);
    expect(run.slug.isError).toBeUndefined();
  });
});

describe('the pure helpers', () => {
  it('counts lines the way an editor shows them', () => {
    expect(countText('')).toEqual({ lines: 0, words: 0, characters: 0, bytes: 0 });
    expect(countText('a\r\nb\rc')).toMatchObject({ lines: 3, words: 3 });
    expect(countText('\n')).toMatchObject({ lines: 1, words: 0 });
    expect(countText('é')).toMatchObject({ characters: 1, bytes: 2 });
  });

  it('cuts slugs at a word boundary', () => {
    expect(slugify('The quick brown fox', '-', 12)).toBe('the-quick');
    expect(slugify('Supercalifragilistic', '-', 5)).toBe('super');
    expect(slugify('--a--b--')).toBe('a-b');
  });
});
