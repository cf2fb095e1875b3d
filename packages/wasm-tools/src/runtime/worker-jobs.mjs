// The jobs of a worker process (see worker.mjs): describe, a function-tool call or a command run,
// each answered with a WorkerOutcome. worker.mjs imports this file while a preloaded component
// compiles. Plain JS: this file runs in the forked worker.
import { GuestExit } from './worker-capabilities.mjs';
import { createInstance, discardInstance, runExport, toolExport, warmInstance } from './worker-instances.mjs';
import { capText } from './worker-output.mjs';

function failure(error, output) {
  if (error instanceof GuestExit) {
    return { ok: false, kind: 'exit', code: error.code, message: error.message, ...output };
  }
  if (error instanceof Error && !Object.hasOwn(error, 'payload')) {
    return { ok: false, kind: 'trap', message: `${error.name}: ${error.message}`, ...output };
  }
  const payload = error instanceof Error ? error.payload : error;
  return { ok: false, kind: 'component-error', message: String(payload), ...output };
}

function readOutput(captures) {
  return { stdout: captures.stdout.text(), stderr: captures.stderr.text() };
}

async function describe(job) {
  const { exports, key, capabilities } = await warmInstance(job);
  const captures = capabilities.beginCall(job.maxOutputBytes);
  try {
    return { ok: true, descriptors: toolExport(exports).describe(), ...readOutput(captures) };
  } catch (error) {
    discardInstance(key);
    return failure(error, readOutput(captures));
  }
}

async function runFunction(job) {
  const { exports, key, capabilities } = await warmInstance(job);
  const captures = capabilities.beginCall(job.maxOutputBytes);
  try {
    const output = toolExport(exports).run(job.toolName, job.input);
    return {
      ok: true,
      output: {
        content: capText(String(output.content ?? ''), job.maxOutputBytes),
        images: (output.images ?? []).map((image) => ({ mediaType: image.mediaType, data: image.data })),
        isError: output.isError === true,
        metadata: typeof output.metadata === 'string' ? capText(output.metadata, job.maxOutputBytes) : null,
      },
      ...readOutput(captures),
    };
  } catch (error) {
    if (error instanceof Error && !Object.hasOwn(error, 'payload')) discardInstance(key);
    if (error instanceof GuestExit) discardInstance(key);
    return failure(error, readOutput(captures));
  }
}

async function runCommand(job) {
  const { exports, capabilities } = await createInstance(job);
  const captures = capabilities.beginCall(job.maxOutputBytes);
  try {
    runExport(exports).run();
    return { ok: true, status: 'ok', ...readOutput(captures) };
  } catch (error) {
    const result = failure(error, readOutput(captures));
    if (result.kind === 'component-error') return { ok: true, status: 'err', ...readOutput(captures) };
    return result;
  }
}

/** Runs one job; never throws (failures are outcomes). */
export async function handle(job) {
  try {
    if (job.kind === 'describe') return await describe(job);
    if (job.kind === 'function') return await runFunction(job);
    if (job.kind === 'command') return await runCommand(job);
    return { ok: false, kind: 'host', message: `Unknown job kind ${job.kind}.` };
  } catch (error) {
    return { ok: false, kind: 'host', message: error instanceof Error ? error.message : String(error) };
  }
}
