/** The conditions Node's ESM loader always applies to `import` (`default` is implied). */
const NODE_IMPORT_CONDITIONS = ['import', 'node', 'module-sync'] as const;

/** The values of `--conditions` / `-C` flags in a list of Node arguments. */
export function conditionFlags(args: readonly string[]): string[] {
  const found: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? '';
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(argument);
    if (inline?.[1] !== undefined) found.push(inline[1]);
    else if ((argument === '--conditions' || argument === '-C') && args[index + 1] !== undefined) {
      found.push(args[index + 1] as string);
      index++;
    }
  }
  return found;
}

/**
 * The conditions a plugin package's `exports` map is read with: what Node's own `import` uses in
 * this process (`import`, `node`, `module-sync`, and any `--conditions` given on the command line or
 * in NODE_OPTIONS), plus the ones the host adds. The plugin then resolves the way importing it by
 * name would.
 */
export function importConditions(
  extra: readonly string[] = [],
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): Set<string> {
  const fromOptions = nodeOptions === undefined ? [] : conditionFlags(nodeOptions.split(/\s+/).filter(Boolean));
  return new Set([...NODE_IMPORT_CONDITIONS, ...conditionFlags(execArgv), ...fromOptions, ...extra]);
}
