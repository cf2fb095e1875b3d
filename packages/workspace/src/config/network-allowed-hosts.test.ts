// network.allowedHosts accepts the one allowlist format web_fetch and the sandbox accept
// (parsed by @boxagnts/api's parseAllowedHost), so one value passes both.
import { isUrlAllowed, parseAllowedHosts } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { type ConfigError, isConfigError } from './config-error.js';
import { parseConfigText } from './load-config.js';

const FILE = '/ws/boxagnts.json';

function hosts(entries: string[]): readonly string[] {
  return parseConfigText(JSON.stringify({ network: { allowedHosts: entries } }), FILE, { env: {} }).network
    .allowedHosts;
}

function failure(entries: string[]): ConfigError {
  try {
    hosts(entries);
  } catch (error) {
    if (isConfigError(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('network.allowedHosts', () => {
  it("accepts BoxAgnts' URL entries, bare hosts, hosts with a port and wildcard subdomains", () => {
    const entries = ['https://wttr.in', 'api.github.com', 'localhost:8080', '*.example.com', '*://*.docs.rs:*'];
    expect(hosts(entries)).toEqual(entries);
  });

  it('gives web_fetch a value it accepts, both ways', () => {
    const allowed = parseAllowedHosts(hosts(['https://wttr.in', 'api.github.com']));
    expect(isUrlAllowed('https://wttr.in/Paris', allowed)).toBe(true);
    expect(isUrlAllowed('https://api.github.com/repos', allowed)).toBe(true);
    expect(isUrlAllowed('https://evil.example/', allowed)).toBe(false);
  });

  it('refuses a malformed entry with the parser’s message and the field', () => {
    const error = failure(['https://example.com/path']);
    expect(error.message).toContain('network.allowedHosts');
    expect(error.message).toContain('has a path');
  });
});
