import { describe, expect, it } from 'vitest';
import { CONFIG_TOML, runConfigEditorDemo } from './demo.js';

describe('the config-editor demo', () => {
  it('reads config.toml and changes the port to 8080 with the real sandboxed tools', async () => {
    let output = '';
    const result = await runConfigEditorDemo(
      (text: string, inline?: boolean) => {
        output += inline ? text : `${text}\n`;
      },
      { live: false },
    );
    expect(result.outcome.reason).toBe('end_turn');
    expect(result.config).toBe(CONFIG_TOML.replace('port = 8000', 'port = 8080'));
    expect(result.outcome.turns).toBe(3);
    expect(output).toContain('-> read {"file_path":"config.toml"}');
    expect(output).toContain('port = 8000');
    expect(output).toContain('-> edit');
    expect(output).toContain('Done: config.toml now sets port = 8080');
  });
});
