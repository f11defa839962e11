/**
 * Uploads refused on /admin/data over real HTTP on both backends, with no run written: a file of the
 * wrong kind, an empty one or no kind (400 at its first chunk), a file over its limit by its
 * declared size (400), and a chunk over 4,000,000 bytes or chunks past the declared size (413),
 * with or without Content-Length.
 */
import { describe, expect, it } from 'vitest';
import { DATA_MESSAGES, UPLOAD_CHUNK_BYTES, uploadChunkAnswerSchema } from '../../src/features/market/data-admin.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import {
  chunkPath,
  newAdmin,
  refusal,
  runCount,
  SAMPLE_ZHVI,
  uploadCount,
  useAdminDataSuite,
} from '../support/admin-data-suite.ts';
import { IP_HEADER, SESSION_COOKIE } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { rawRequest } from '../support/http.ts';
import { uploadThroughRoutes } from '../support/market-uploads.ts';

describe.each(BACKENDS)('/admin/data on %s', (backend) => {
  const { suite, put } = useAdminDataSuite(backend);

  it('refuses a file of the wrong kind, an empty one or no kind with 400 at its first chunk, writing no run', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    expect(await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'other.csv', 'name,price\nx,1\n'))).toEqual({
      status: 400,
      message:
        'The file: not a Zillow City file: column 1 is "name", expected "RegionID" (the header must start RegionID,SizeRank,RegionName,RegionType,StateName,State,City,Metro,CountyName)',
    });
    const json = JSON.stringify({ value: [] });
    const jsonAsCsv = await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'a.csv', json));
    expect(jsonAsCsv.message).toMatch(/^The file: the header is not valid CSV/);
    expect(await refusal(uploadThroughRoutes(suite, admin, 'sold', 'zhvi.json', SAMPLE_ZHVI))).toEqual({
      status: 400,
      message: DATA_MESSAGES.notJson,
    });
    expect(await refusal(uploadThroughRoutes(suite, admin, 'zhvi', 'empty.csv', ''))).toEqual({
      status: 400,
      message: DATA_MESSAGES.empty,
    });
    const upload = crypto.randomUUID();
    await expectError(await put(admin, chunkPath(upload, 0), ''), 400, DATA_MESSAGES.emptyChunk);
    await expectError(
      await put(admin, chunkPath(upload, 0, '?name=a.csv&size=9'), SAMPLE_ZHVI),
      400,
      DATA_MESSAGES.chooseKind,
    );
    await expectError(
      await put(admin, chunkPath(upload, 0, '?source=inventory&name=a.csv&size=9'), SAMPLE_ZHVI),
      400,
      DATA_MESSAGES.chooseKind,
    );
    await expectError(
      await put(admin, chunkPath(upload, 0, '?source=zhvi&name=a.csv&size=0'), 'x'),
      400,
      DATA_MESSAGES.empty,
    );
    await expectError(await put(admin, chunkPath('not-a-uuid', 0), SAMPLE_ZHVI), 400, DATA_MESSAGES.uploadId);
    await expectError(await put(admin, chunkPath(upload, -1), SAMPLE_ZHVI), 400, DATA_MESSAGES.chunkIndex);
    await expectError(
      await admin.post(`/api/admin/data/uploads/${upload}/complete`, { chunks: 0 }),
      400,
      DATA_MESSAGES.chunkCount,
    );
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });

  it('refuses a file over its limit (400, by its declared size) and a chunk over 4,000,000 bytes (413), with or without Content-Length', async () => {
    const admin = await newAdmin(suite);
    const before = await runCount(suite);
    const upload = crypto.randomUUID();
    const tooBig = `?source=sold&name=big.json&size=${51 * 1024 * 1024}`;
    await expectError(await put(admin, chunkPath(upload, 0, tooBig), '{}'), 400, DATA_MESSAGES.tooLarge('sold'));
    const allowed = `?source=sold&name=big.json&size=${50 * 1024 * 1024}`;
    await expectError(
      await put(admin, chunkPath(upload, 0, allowed), `{${' '.repeat(UPLOAD_CHUNK_BYTES)}`),
      413,
      DATA_MESSAGES.chunkTooLarge,
    );
    const megabyte = Buffer.alloc(1024 * 1024, 0x20);
    const streamed = await rawRequest(suite.api.origin, chunkPath(upload, 1, allowed), {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        origin: suite.api.origin,
        cookie: `${SESSION_COOKIE}=${admin.session ?? ''}`,
        [IP_HEADER]: admin.ip,
        'transfer-encoding': 'chunked',
      },
      chunks: Array.from({ length: 4 }, () => megabyte),
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: DATA_MESSAGES.chunkTooLarge });
    // Chunks that add up to more than the file said it was.
    const small = crypto.randomUUID();
    const smallQuery = '?source=sold&name=small.json&size=10';
    await expectJson(await put(admin, chunkPath(small, 0, smallQuery), '{"value":'), 200, uploadChunkAnswerSchema);
    await expectError(await put(admin, chunkPath(small, 1, smallQuery), '[]}'), 413, DATA_MESSAGES.stagedTooLarge);
    // A first chunk larger than the whole file is refused and leaves no upload behind (the fuzz found one).
    const uploadsBefore = await uploadCount(suite);
    const oversized = crypto.randomUUID();
    await expectError(
      await put(admin, chunkPath(oversized, 0, '?source=sold&name=tiny.json&size=4'), '[false,[]]'),
      413,
      DATA_MESSAGES.stagedTooLarge,
    );
    expect(await uploadCount(suite)).toBe(uploadsBefore);
    await suite.settle();
    expect(await runCount(suite)).toBe(before);
  });
});
