import { mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractZip, readZipEntries } from './zip-archive.ts';
import { checkFunctionZips, packagesOf, readFunctionZips, sizeTable, zipProblems } from './zip-budget.ts';

interface Member {
  name: string;
  content: Buffer | string;
  symlink?: boolean;
}

/** A zip as a bundler writes one: deflated files with local headers, then the central directory. */
function makeZip(members: readonly Member[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const data = Buffer.from(member.content);
    const deflated = deflateRawSync(data);
    const name = Buffer.from(member.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((member.symlink ? 0o120777 : 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const entry = (name: string, content: string | Buffer = `// ${name}\n`): Member => ({ name, content });

describe('the function zips of a Netlify build', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zip-budget-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads names, sizes and content back from a zip', async () => {
    const file = join(dir, 'api.zip');
    const text = 'export default () => new Response("ok");\n'.repeat(50);
    await writeFile(
      file,
      makeZip([
        entry('netlify/functions/api.mjs', text),
        { name: 'node_modules/.bin/x', content: '../x/cli.js', symlink: true },
      ]),
    );
    const entries = await readZipEntries(file);
    expect(entries.map(({ name, size, isSymlink }) => ({ name, size, isSymlink }))).toEqual([
      { name: 'netlify/functions/api.mjs', size: text.length, isSymlink: false },
      { name: 'node_modules/.bin/x', size: '../x/cli.js'.length, isSymlink: true },
    ]);
    expect(entries[0]?.compressedSize).toBeLessThan(text.length);
    const out = join(dir, 'out');
    await extractZip(file, out);
    expect(await readFile(join(out, 'netlify/functions/api.mjs'), 'utf8')).toBe(text);
    expect(await readlink(join(out, 'node_modules/.bin/x'))).toBe('../x/cli.js');
  });

  it('refuses an entry that would be written outside the folder', async () => {
    const file = join(dir, 'evil.zip');
    await writeFile(file, makeZip([entry('../escaped.js')]));
    await expect(extractZip(file, join(dir, 'out'))).rejects.toThrow(/outside/);
  });

  it('names the packages of an entry, scoped and nested', () => {
    expect(packagesOf('node_modules/@img/sharp-libvips-linux-x64/lib/libvips.so')).toEqual([
      '@img/sharp-libvips-linux-x64',
    ]);
    expect(packagesOf('node_modules/node/bin/node')).toEqual(['node']);
    expect(packagesOf('node_modules/a/node_modules/@electric-sql/pglite/dist/x.wasm')).toEqual([
      'a',
      '@electric-sql/pglite',
    ]);
    expect(packagesOf('netlify/functions/api.mjs')).toEqual([]);
  });

  it('passes lean zips', async () => {
    await writeFile(
      join(dir, 'api.zip'),
      makeZip([entry('netlify/functions/api.mjs'), entry('node_modules/pdf-lib/cjs/index.js')]),
    );
    await writeFile(
      join(dir, 'api-images.zip'),
      makeZip([entry('netlify/functions/api-images.mjs'), entry('node_modules/sharp/lib/index.js')]),
    );
    await writeFile(
      join(dir, 'deliver-email.zip'),
      makeZip([entry('netlify/functions/deliver-email.mjs'), entry('node_modules/pdf-lib/cjs/index.js')]),
    );
    await writeFile(
      join(dir, 'sync-crm.zip'),
      makeZip([entry('netlify/functions/sync-crm.mjs'), entry('node_modules/zod/index.js')]),
    );
    expect(await checkFunctionZips(dir)).toEqual([]);
    const table = sizeTable(await readFunctionZips(dir));
    expect(table.split('\n')).toHaveLength(5);
    expect(table).toMatch(/^api\s+0\.0 MB\s+0\.0 MB\s+2\s+10\.0 MB$/m);
  });

  it('finds the Node binary, PGlite, and sharp or pdf-lib where they do not belong', async () => {
    await writeFile(
      join(dir, 'api.zip'),
      makeZip([
        entry('netlify/functions/api.mjs'),
        entry('node_modules/node/bin/node'),
        entry('node_modules/@electric-sql/pglite/dist/index.js'),
        entry('node_modules/sharp/lib/index.js'),
      ]),
    );
    await writeFile(
      join(dir, 'sync-crm.zip'),
      makeZip([
        entry('node_modules/@img/sharp-linux-x64/lib/sharp.node'),
        entry('node_modules/@pdf-lib/standard-fonts/index.js'),
      ]),
    );
    expect(await checkFunctionZips(dir)).toEqual([
      'api.zip carries node (node_modules/node/bin/node): no function may',
      'api.zip carries @electric-sql/pglite (node_modules/@electric-sql/pglite/dist/index.js): no function may',
      'api.zip carries sharp (node_modules/sharp/lib/index.js): sharp belongs in api-images only',
      'sync-crm.zip carries @img/sharp-linux-x64 (node_modules/@img/sharp-linux-x64/lib/sharp.node): sharp belongs in api-images only',
      'sync-crm.zip carries @pdf-lib/standard-fonts (node_modules/@pdf-lib/standard-fonts/index.js): pdf-lib belongs in api, api-images, deliver-email only',
    ]);
  });

  it('holds api to its budget and every function to Netlify’s limits', () => {
    const zip = (name: string, zipped: number, unzipped: number) => ({ name, zipped, unzipped, files: 1, entries: [] });
    expect(zipProblems(zip('api', 9_999_999, 249_999_999))).toEqual([]);
    expect(zipProblems(zip('api', 10_000_001, 30_000_000))).toEqual([
      'api.zip is 10,000,001 B, over its budget of 10,000,000 B',
    ]);
    expect(zipProblems(zip('sync-crm', 49_000_000, 250_000_001))).toEqual([
      'sync-crm unzips to 250,000,001 B, over Netlify’s 250,000,000 B',
    ]);
    expect(zipProblems(zip('sync-crm', 50_000_001, 60_000_000))).toEqual([
      'sync-crm.zip is 50,000,001 B, over Netlify’s 50,000,000 B',
    ]);
  });

  it('says so when there is nothing to check', async () => {
    expect(await checkFunctionZips(dir)).toEqual([`no function zips in ${dir}`]);
  });
});
