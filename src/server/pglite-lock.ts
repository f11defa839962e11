import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is one process's database: two processes writing the same data directory corrupt it.
 * Every command that opens the embedded database takes this lock first (a pid file beside the
 * data); a second one is refused with what to do instead. A lock left by a dead process is taken over.
 */
export function lockPgliteDir(dataDir: string, holder: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'in-use.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, holder }));
      closeSync(fd);
      const release = () => rmSync(file, { force: true });
      process.once('exit', release);
      return () => {
        process.removeListener('exit', release);
        release();
      };
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const owner = lockOwner(file);
      if (owner && isAlive(owner.pid) && owner.pid !== process.pid) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by ${owner.holder} (pid ${owner.pid}). ` +
            'Stop that process (Ctrl+C in its terminal) and run this command again.',
          { cause: error },
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

function lockOwner(file: string): { pid: number; holder: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed && typeof parsed.pid === 'number') {
      const holder = 'holder' in parsed && typeof parsed.holder === 'string' ? parsed.holder : 'another command';
      return { pid: parsed.pid, holder };
    }
  } catch {
    // Unreadable: treat as stale.
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
