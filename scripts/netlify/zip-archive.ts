/**
 * Reads the zips Netlify's bundler writes (.netlify/functions/*.zip): the list of entries from the
 * central directory, and extraction for the cold-start benchmark. Node has no zip reader, and `unzip`
 * is not on every CI image; the format's two records we need are a few lines each
 * (APPNOTE.TXT 4.3.12 and 4.3.16). Zip64 is refused with a clear error: no function may reach 4 GB.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the zip, with forward slashes; a folder ends with '/'. */
  name: string;
  compressedSize: number;
  size: number;
  /** 0 stored, 8 deflated. */
  method: number;
  /** A symbolic link (its content is the target). */
  isSymlink: boolean;
  /** Where the entry's local header starts. */
  headerOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function endRecordOffset(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - END_RECORD_SIZE - MAX_COMMENT);
  for (let offset = zip.length - END_RECORD_SIZE; offset >= lowest; offset -= 1) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new Error('not a zip file (no end of central directory record)');
}

/** The entries of a zip held in memory, in the order of its central directory. */
export function zipEntries(zip: Buffer): ZipEntry[] {
  const end = endRecordOffset(zip);
  const count = zip.readUInt16LE(end + 10);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new Error('zip64 archives are not supported');
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_HEADER) {
      throw new Error(`corrupt zip: no central directory header at ${offset}`);
    }
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const mode = zip.readUInt32LE(offset + 38) >>> 16;
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      isSymlink: (mode & S_IFMT) === S_IFLNK,
      headerOffset: zip.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The uncompressed content of one entry. */
export function entryContent(zip: Buffer, entry: ZipEntry): Buffer {
  const header = entry.headerOffset;
  if (zip.readUInt32LE(header) !== LOCAL_FILE_HEADER) throw new Error(`corrupt zip: no local header for ${entry.name}`);
  // The local header's own name and extra lengths, which may differ from the central directory's.
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${entry.name}: compression method ${entry.method} is not supported`);
}

export const readZipEntries = async (file: string): Promise<ZipEntry[]> => zipEntries(await readFile(file));

/** Writes every entry of `file` under `dir` (which it creates); refuses paths that leave `dir`. */
export async function extractZip(file: string, dir: string): Promise<void> {
  const zip = await readFile(file);
  const root = resolve(dir);
  for (const entry of zipEntries(zip)) {
    const target = resolve(root, entry.name);
    if (!target.startsWith(root + sep)) throw new Error(`${entry.name} would be written outside ${dir}`);
    if (entry.name.endsWith('/')) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    const content = entryContent(zip, entry);
    if (entry.isSymlink) await symlink(content.toString('utf8'), target);
    else await writeFile(target, content);
  }
}
