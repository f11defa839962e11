/**
 * A throwaway PostgreSQL 15 server for the integration tests: its own data directory under the
 * system temp dir, a free port on 127.0.0.1, and the unix socket kept inside the temp dir so it never
 * collides with a system server.
 *
 * TCP clients authenticate with a cleartext password, as Neon's proxy takes it from the Neon driver:
 * the driver pipelines the startup, password and first query in one write (its default
 * `pipelineConnect: "password"`, which works only with cleartext password auth), so tests and
 * benchmarks reach the database the way production does. Only 127.0.0.1 listens; the unix socket
 * keeps SCRAM.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const SERVICE_USER = 'postgres';

export interface RunningPostgres {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  connectionString: string;
  host: string;
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Makes sure initdb, pg_ctl and postgres are present, installing them when we may. */
function ensureBinaries(): void {
  const needed = ['initdb', 'pg_ctl', 'postgres'].map((name) => join(POSTGRES_BIN, name));
  if (needed.every((file) => existsSync(file))) return;
  if (isRoot()) {
    const install = spawnSync('apt-get', ['install', '-y', 'postgresql'], {
      stdio: 'pipe',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (install.status === 0 && needed.every((file) => existsSync(file))) return;
    throw new Error(
      `PostgreSQL 15 is missing from ${POSTGRES_BIN} and "apt-get install -y postgresql" failed:\n` +
        String(install.stderr ?? ''),
    );
  }
  throw new Error(
    `PostgreSQL 15 server binaries are missing from ${POSTGRES_BIN}. Install them with ` +
      '"sudo apt-get install -y postgresql" (Debian/Ubuntu package postgresql-15), then run the tests again.',
  );
}

/** A port nobody listens on at the moment (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the postgres user when we are root (initdb refuses root). */
function runPg(binary: string, args: string[]): SpawnSyncReturns<string> {
  const file = join(POSTGRES_BIN, binary);
  const options = { encoding: 'utf8', stdio: 'pipe', cwd: '/tmp' } as const;
  if (!isRoot()) return spawnSync(file, args, { ...options, cwd: tmpdir() });
  if (hasRunuser()) return spawnSync('runuser', ['-u', SERVICE_USER, '--', file, ...args], options);
  // su needs one shell command line: quote every word.
  const line = [file, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawnSync('su', [SERVICE_USER, '-s', '/bin/sh', '-c', line], options);
}

let runuserFound: boolean | undefined;
function hasRunuser(): boolean {
  runuserFound ??= spawnSync('runuser', ['--help'], { stdio: 'ignore' }).status === 0;
  return runuserFound;
}

function runPgOrThrow(binary: string, args: string[], logFile?: string): void {
  const result = runPg(binary, args);
  if (result.status === 0) return;
  const log = logFile && existsSync(logFile) ? `\n--- server log ---\n${readFileSync(logFile, 'utf8')}` : '';
  throw new Error(
    `${binary} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n` +
      `${result.stdout}${result.stderr}${log}`,
  );
}

/** Starts the server on a free port; answers the port. */
async function startServer(dataDir: string, socketDir: string, logFile: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${socketDir}`,
      '-c listen_addresses=127.0.0.1',
      // Throwaway data: durability buys nothing and costs time.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    const result = runPg('pg_ctl', ['--pgdata', dataDir, '--log', logFile, '--options', options, '--wait', 'start']);
    if (result.status === 0) return port;
    // Another process may have taken the port between our probe and the server's bind: try again.
    if (attempt >= 3) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      runPg('pg_ctl', ['--pgdata', dataDir, '--mode', 'immediate', 'stop']);
      throw new Error(`pg_ctl start failed:\n${result.stdout}${result.stderr}\n--- server log ---\n${log}`);
    }
  }
}

/** Starts a fresh server; `stop()` shuts it down and deletes its files. */
export async function start(): Promise<RunningPostgres> {
  ensureBinaries();
  // As root the files must be reachable by the postgres user: /tmp is, a private TMPDIR may not be.
  const root = mkdtempSync(join(isRoot() ? '/tmp' : tmpdir(), 'nts-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  const logFile = join(root, 'server.log');
  const passwordFile = join(root, 'password');
  const password = randomBytes(12).toString('hex');
  const user = SERVICE_USER;
  mkdirSync(socketDir);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', SERVICE_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SERVICE_USER], { encoding: 'utf8' }).trim());
    for (const path of [root, socketDir, passwordFile]) chownSync(path, uid, gid);
  }

  const cleanupFiles = () => rmSync(root, { recursive: true, force: true });
  try {
    runPgOrThrow('initdb', [
      '--pgdata',
      dataDir,
      '--username',
      user,
      '--pwfile',
      passwordFile,
      '--auth-local',
      'scram-sha-256',
      '--auth-host',
      'password',
      '--encoding',
      'UTF8',
      '--no-locale',
      '--no-sync',
      '--no-instructions',
    ]);
  } catch (error) {
    cleanupFiles();
    throw error;
  }

  const port = await startServer(dataDir, socketDir, logFile).catch((error: unknown) => {
    cleanupFiles();
    throw error;
  });

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    runPg('pg_ctl', ['--pgdata', dataDir, '--mode', 'immediate', '--wait', 'stop']);
    cleanupFiles();
  };
  // Never leave a server behind when the run ends abruptly.
  process.once('exit', stopSync);

  return {
    connectionString: `postgres://${user}:${password}@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    user,
    password,
    stop() {
      process.removeListener('exit', stopSync);
      stopSync();
      return Promise.resolve();
    },
  };
}
