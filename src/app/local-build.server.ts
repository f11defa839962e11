/**
 * The local rebuild (no BUILD_HOOK_URL; the server that serves dist/ itself, scripts/serve.ts):
 * the site is built into a NEW folder while the old one keeps serving, then swapped in at once.
 *
 * The embedded database is locked by the serving process, so the build (a child process) cannot
 * open it: the server writes a snapshot of everything the pages read (snapshotBuildData) to a file
 * and the build reads that (BUILD_DATA_SNAPSHOT, src/app/build-data.ts).
 *
 * Folders: every build lives in `buildsDir`; `dist` is a symlink to the newest, replaced by a
 * rename (atomic), so the next `npm run serve` serves it. Old folders are removed after a grace
 * period, for requests still reading from them.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { snapshotBuildData } from './build-data.ts';
import type { Db } from '../platform/db.ts';
import type { SiteFolder } from './site-server.ts';
import type { SiteBuilder } from '../features/site-build/site-build.server.ts';

/** The folder `npm run serve` serves: a symlink to the newest build once a server has run. */
export const DIST = 'dist';
/** Where the builds live. */
export const SITE_BUILDS_DIR = '.data/site-builds';

/**
 * Before `astro build` into dist (npm start): a symlink there is removed, so that the build writes
 * a folder of its own rather than into the last served build (or fails on a link whose builds
 * folder was deleted); the server moves it among the builds when it starts.
 */
export function unlinkDist(): void {
  if (lstatSync(DIST, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(DIST);
}

/** Builds the site into `outDir` from the data in `snapshotFile`; rejects with what went wrong. */
export type RunBuild = (outDir: string, snapshotFile: string) => Promise<void>;

/** The most of a failed build's output kept as its error. */
const ERROR_TAIL = 2000;

/** `astro build --outDir <dir>` in a child process, as `npm start` builds, reading the snapshot. */
export const astroBuild: RunBuild = (outDir, snapshotFile) =>
  new Promise((resolvePromise, reject) => {
    const child = spawn('npx', ['astro', 'build', '--outDir', outDir], {
      env: { ...process.env, BUILD_DATA_SNAPSHOT: snapshotFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-ERROR_TAIL);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`astro build failed (exit code ${code ?? 'none'}): ${output.trim()}`));
    });
  });

/** Points `link` at `dir` in one step: a new symlink renamed over the old one. */
function pointLink(link: string, dir: string): void {
  const next = `${link}.next`;
  rmSync(next, { force: true });
  symlinkSync(resolve(dir), next, 'dir');
  renameSync(next, link);
}

/**
 * Makes `link` (dist) a symlink into `buildsDir` before the server starts serving: a real folder
 * (from `astro build`) is moved there first. Folders `link` does not name are leftovers of earlier
 * runs (only the server holding the database builds into them) and are removed.
 */
export function prepareBuildFolders(link: string, buildsDir: string): void {
  mkdirSync(buildsDir, { recursive: true });
  if (!existsSync(link)) return;
  if (!lstatSync(link).isSymbolicLink()) {
    const moved = join(buildsDir, `build-${Date.now()}`);
    renameSync(link, moved);
    pointLink(link, moved);
  }
  const current = realpathSync(link);
  for (const name of readdirSync(buildsDir)) {
    const path = realpathSync(join(buildsDir, name));
    if (path !== current) rmSync(path, { recursive: true, force: true });
  }
}

export interface LocalBuildOptions {
  db: Db;
  /** What the site server serves; swapped to each new build. */
  folder: SiteFolder;
  /** The symlink the next `npm run serve` serves (dist). */
  link: string;
  /** Where the builds live (DATA_DIR/site-builds). */
  buildsDir: string;
  runBuild?: RunBuild;
  /** How long a replaced folder stays for requests that began before the swap. */
  graceMs?: number;
}

export function localBuilder({
  db,
  folder,
  link,
  buildsDir,
  runBuild = astroBuild,
  graceMs = 60_000,
}: LocalBuildOptions): SiteBuilder {
  return {
    mode: 'local',
    async build() {
      const snapshot = await snapshotBuildData(db);
      mkdirSync(buildsDir, { recursive: true });
      const outDir = await mkdtemp(join(buildsDir, 'build-'));
      // Beside the folder, not in it: Astro empties its outDir first.
      const snapshotFile = `${outDir}.snapshot.json`;
      try {
        await writeFile(snapshotFile, JSON.stringify(snapshot));
        await runBuild(outDir, snapshotFile);
      } catch (error) {
        await rm(outDir, { recursive: true, force: true });
        throw error;
      } finally {
        await rm(snapshotFile, { force: true });
      }
      const previous = folder.site.root;
      folder.swap(outDir);
      pointLink(link, outDir);
      if (previous !== resolve(outDir) && previous.startsWith(resolve(buildsDir))) {
        setTimeout(() => rmSync(previous, { recursive: true, force: true }), graceMs).unref();
      }
      return { dataAt: snapshot.dataAt };
    },
  };
}

/** A build's data time as its dist/build.json says (src/pages/build.json.ts); none for an older build. */
export function builtDataAt(dir: string): string | undefined {
  const file = join(dir, 'build.json');
  if (!existsSync(file)) return undefined;
  return z.object({ data_at: z.string() }).parse(JSON.parse(readFileSync(file, 'utf8'))).data_at;
}

/**
 * Records the build the server starts serving as the latest succeeded one (unless it is already),
 * so a fresh `npm start` does not say "needs rebuild"; and fails the local builds a stopped server
 * left running.
 */
export async function recordServedBuild(db: Db, dataAt: string | undefined): Promise<void> {
  await db.query(
    `UPDATE site_builds SET status = 'failed', finished_at = now(), error = 'The server stopped during the build'
      WHERE status = 'running' AND mode = 'local'`,
  );
  if (dataAt === undefined) return;
  await db.query(
    `INSERT INTO site_builds (trigger, mode, data_at, finished_at, status)
     SELECT 'auto', 'local', $1, now(), 'succeeded'
      WHERE NOT EXISTS (SELECT 1 FROM (SELECT data_at FROM site_builds WHERE status = 'succeeded' ORDER BY id DESC LIMIT 1) last
                         WHERE last.data_at = $1::timestamptz)`,
    [dataAt],
  );
}
