import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPgliteDir } from './pglite-lock.ts';

describe('lockPgliteDir', () => {
  it('refuses a second holder while the first lives, and says what to do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    writeFileSync(join(dir, 'in-use.lock'), JSON.stringify({ pid: process.ppid, holder: 'npm start' }));
    expect(() => lockPgliteDir(dir, 'npm run data:refresh')).toThrow(
      /in use by npm start \(pid \d+\)\. Stop that process .* and run this command again/,
    );
  });

  it('takes over a lock left by a dead process and releases it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    writeFileSync(join(dir, 'in-use.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, holder: 'gone' }));
    const release = lockPgliteDir(dir, 'test');
    expect(JSON.parse(readFileSync(join(dir, 'in-use.lock'), 'utf8'))).toEqual({ pid: process.pid, holder: 'test' });
    release();
    expect(() => readFileSync(join(dir, 'in-use.lock'))).toThrow();
    lockPgliteDir(dir, 'again')();
  });
});
