import { describe, expect, it } from 'vitest';
import { byteChunks, zhviChunks, type UploadChunk } from './upload-chunks.ts';

/** `text` as a stream of pieces of `size` bytes, cut anywhere (inside a line, a quote, a character). */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function collect(chunks: AsyncIterable<UploadChunk>): Promise<UploadChunk[]> {
  const all: UploadChunk[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

const decode = (chunks: readonly UploadChunk[]) => chunks.map((chunk) => new TextDecoder().decode(chunk.body));

const HEADER = 'RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName,2025-08-31,2025-09-30';
const row = (id: number, name: string, state: string, county: string) =>
  `${id},${id},${name},city,${state},${state},${name},"New York-Newark-Jersey City, NY-NJ-PA",${county},500000.5,501000.25`;

describe('zhviChunks', () => {
  const rows = [
    row(1, 'Los Angeles', 'CA', 'Los Angeles County'),
    row(2, 'Garden City', 'NY', 'Nassau County'),
    row(3, 'Houston', 'TX', 'Harris County'),
    row(4, 'Buffalo', 'NY', 'Erie County'),
    row(5, '"Saint ""James"""', 'NY', 'Suffolk County'),
    row(6, 'Bay Shore', 'MI', 'Charlevoix County'),
    row(7, 'Montauk', 'NY', 'Suffolk County'),
  ];
  const file = `\uFEFF${HEADER}\r\n${rows.join('\r\n')}\r\n\r\n`;
  const kept = [HEADER, rows[1], rows[3], rows[4], rows[6]].map((line) => `${line}\n`);

  it('sends the header and the New York rows only, whole lines, whatever the stream’s pieces', async () => {
    for (const piece of [1, 7, 64, 10_000]) {
      const chunks = await collect(zhviChunks(streamOf(file, piece)));
      expect(decode(chunks).join(''), `pieces of ${piece}`).toBe(kept.join(''));
      expect(chunks.at(-1)?.fileBytesRead).toBe(new TextEncoder().encode(file).length);
    }
  });

  it('cuts at line ends, each chunk at most the limit, the header in the first', async () => {
    const limit = (kept[1]?.length ?? 0) * 2;
    const chunks = await collect(zhviChunks(streamOf(file, 13), limit));
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.body.byteLength).toBeLessThanOrEqual(limit);
      expect(new TextDecoder().decode(chunk.body)).toMatch(/\n$/);
    }
    expect(decode(chunks)[0]).toMatch(/^RegionID,/);
    expect(decode(chunks).join('')).toBe(kept.join(''));
  });

  it('sends a file without a State column as it is, for the server to refuse by its header', async () => {
    const other = 'name,price\nx,1\ny,2\n';
    expect(decode(await collect(zhviChunks(streamOf(other, 5)))).join('')).toBe(other);
  });
});

describe('byteChunks', () => {
  it('cuts any file into pieces of exactly the limit, the last one shorter, losing nothing', async () => {
    const text = '{"value":[' + '{"ListingKey":"é"},'.repeat(50) + '{}]}';
    const bytes = new TextEncoder().encode(text);
    for (const [piece, limit] of [
      [1, 100],
      [33, 100],
      [1000, 64],
      [5000, 5000],
    ] as const) {
      const chunks = await collect(byteChunks(streamOf(text, piece), limit));
      expect(chunks.slice(0, -1).every((chunk) => chunk.body.byteLength === limit)).toBe(true);
      expect(chunks.length).toBe(Math.ceil(bytes.length / limit));
      expect(Buffer.concat(chunks.map((chunk) => chunk.body)).equals(Buffer.from(bytes))).toBe(true);
      expect(chunks.at(-1)?.fileBytesRead).toBe(bytes.length);
    }
  });
});
