import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from './cli-error.js';

/** How long `config set` waits for another one to finish before giving up (30 s). */
export const CONFIG_LOCK_WAIT_MS = 30_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `change` while holding `<state>/config.lock`, so `boxagnts config set` in several processes at
 * once applies every change instead of the last writer's only (each update reads the file, edits it
 * and writes it back). The lock holds the owner's pid; a lock whose process is gone is taken over.
 * Waiting longer than {@link CONFIG_LOCK_WAIT_MS} is a {@link CliError} naming the lock file.
 */
export async function withConfigLock<T>(stateDir: string, change: () => Promise<T>): Promise<T> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const lock = join(stateDir, 'config.lock');
  const giveUpAt = Date.now() + CONFIG_LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > giveUpAt) {
      throw new CliError(`another "boxagnts config set" holds ${lock}; if none is running, delete that file.`);
    }
    await sleep(20 + Math.random() * 30);
  }
  try {
    return await change();
  } finally {
    await rm(lock, { force: true });
  }
}
