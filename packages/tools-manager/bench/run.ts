// `pnpm bench` in packages/tools-manager: the cost of one permission decision on a shell command,
// now that commands are parsed by just-bash's parser, next to two baselines measured in the same
// run: just-bash's `parse` alone (the floor: what the engine adds on top of parsing), and just-bash
// running the command (what the check adds to a call of the simulated shell). Prints µs per call
// and the ratios. Flag: `--quick` (fewer iterations, for a smoke run).
import { Bash, parse } from 'just-bash';
import { createPermissionEngine } from '../src/index.js';

const quick = process.argv.includes('--quick');
const ITERATIONS = quick ? 300 : 3_000;
const ROUNDS = quick ? 3 : 7;

const COMMANDS = [
  'npm test -- --run',
  'CI=1 npm test && git status | head -n 5',
  "git commit -m 'fix: a && b || c | d' && git push origin main",
  'for f in src/*.ts; do wc -l "$f"; done > /dev/null 2>&1',
  'find . -name "*.log" -exec rm {} \\; ; echo "$(date) done"',
];

const engine = createPermissionEngine({
  rules: { allow: ['bash(npm test:*)', 'bash(git status)', 'bash(git commit:*)', 'bash(wc:*)'], deny: ['bash(rm:*)'] },
});
const bashTool = { name: 'bash', permission: 'execute' } as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median over rounds of the mean µs per call of `body`, over every command. */
function measure(body: (command: string) => void): number {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < ITERATIONS; index++) body(COMMANDS[index % COMMANDS.length] as string);
    rounds.push(((performance.now() - started) * 1000) / ITERATIONS);
  }
  return median(rounds);
}

async function measureShell(): Promise<number> {
  const shell = new Bash({ files: { '/home/user/src/a.ts': 'x\n' }, cwd: '/home/user' });
  const runs = quick ? 20 : 100;
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < runs; index++) await shell.exec(COMMANDS[index % 4] as string);
    rounds.push(((performance.now() - started) * 1000) / runs);
  }
  return median(rounds);
}

// Warm up the parser and the engine (JIT) before measuring.
for (const command of COMMANDS) {
  parse(command);
  engine.evaluate(bashTool, { command }, { root: '/tmp' });
}
const parseOnly = measure((command) => {
  parse(command);
});
const decision = measure((command) => {
  engine.evaluate(bashTool, { command }, { root: '/tmp' });
});
const shell = await measureShell();

const rows = [
  ['just-bash parse (baseline)', parseOnly],
  ['permission decision (parse + rules)', decision],
  ['just-bash running the command (baseline)', shell],
] as const;
console.log(`tools-manager permission bench (${ITERATIONS} decisions x ${ROUNDS} rounds, median)`);
for (const [name, micros] of rows) console.log(`  ${name.padEnd(44)} ${micros.toFixed(1).padStart(9)} µs/call`);
console.log(`  decision / parse: ${(decision / parseOnly).toFixed(2)}x`);
console.log(`  decision / running the command: ${((decision / shell) * 100).toFixed(1)}%`);
