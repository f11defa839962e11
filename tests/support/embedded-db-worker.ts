/**
 * A worker thread that opens the embedded database as a function under `netlify dev` does: in a
 * thread of its own, in the process of whoever started it (src/platform/pglite-lock.test.ts).
 * workerData: { dataDir, how }; `how` is 'lock' (lockPgliteDir alone) or 'open' (openDatabase,
 * then one statement). It posts { opened: true } or { opened: false, refusal }, and once opened
 * holds the database until it is sent 'release', then posts { released: true } and ends.
 * Run by Node itself (its type stripping), so it imports only erasable TypeScript. Nothing may
 * import this module: it acts on load.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import * as z from 'zod';
import { lockPgliteDir } from '../../src/platform/pglite-lock.ts';

const data = z.object({ dataDir: z.string(), how: z.enum(['lock', 'open']) });

async function open(dataDir: string, how: 'lock' | 'open'): Promise<() => Promise<void>> {
  const holder = `worker ${threadId}`;
  if (how === 'lock') {
    const release = lockPgliteDir(dataDir, holder);
    return () => Promise.resolve(release());
  }
  // Imported only here: the database drivers take seconds to load on a busy machine.
  const [{ openDatabase }, { parseEnv }] = await Promise.all([
    import('../../src/platform/database.ts'),
    import('../../src/platform/env.ts'),
  ]);
  const db = await openDatabase(parseEnv({ DATA_DIR: dataDir }), holder);
  await db.query('SELECT 1');
  return () => db.close();
}

if (parentPort) {
  const port = parentPort;
  const post = (message: { opened: true } | { opened: false; refusal: string } | { released: true }) =>
    port.postMessage(message);
  const { dataDir, how } = data.parse(workerData);
  try {
    const release = await open(dataDir, how);
    port.once('message', () => {
      void release().then(() => {
        post({ released: true });
        port.close();
      });
    });
    post({ opened: true });
  } catch (error) {
    post({ opened: false, refusal: error instanceof Error ? error.message : String(error) });
    port.close();
  }
}
