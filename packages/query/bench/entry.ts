import { runBench } from './main.js';

// The bench process (started by run.ts with --expose-gc, bundled or under tsx).
process.exit(await runBench(process.argv.slice(2)));
