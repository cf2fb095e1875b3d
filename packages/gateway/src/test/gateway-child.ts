// A gateway in its own process, for the restart tests: prints {"url": ...} once listening, then serves until killed.
import { startGateway } from '../gateway.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: gateway-child.ts <workspace-dir>');
const gateway = await startGateway({ workspace: dir, port: 0, sandbox: { bash: false, jsExec: false } });
process.stdout.write(`${JSON.stringify({ url: gateway.url, recovered: gateway.recovered })}\n`);
