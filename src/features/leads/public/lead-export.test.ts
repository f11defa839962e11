import { describe, expect, it } from 'vitest';
import {
  EXPORT_HEADERS,
  exportCursor,
  exportCursorSchema,
  fetchLeadExport,
  LEAD_EXPORT,
  LeadExportError,
  leadExportQuerySchema,
  type LeadExportProgress,
} from './lead-export.ts';

/** A page as the server answers it. */
const page = (body: string, rows: number, headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { [EXPORT_HEADERS.rows]: String(rows), ...headers } });

describe('the export cursor', () => {
  it('reads back what X-Export-Next gives, to the microsecond', () => {
    const cursor = exportCursor({ at: '2026-11-26T07:46:36.123456Z', id: 42 });
    expect(cursor).toBe('2026-11-26T07:46:36.123456Z_42');
    expect(exportCursorSchema.parse(cursor)).toEqual({ at: '2026-11-26T07:46:36.123456Z', id: 42 });
  });

  it.each([
    'abc',
    '',
    '2026-02-30T00:00:00.000000Z_1',
    '2026-11-26T24:00:00.000000Z_1',
    '2026-11-26T07:46:36.123Z_1',
    '2026-11-26T07:46:36.123456Z_0',
    '2026-11-26T07:46:36.123456Z_2147483648',
    '2026-11-26T07:46:36.123456Z_-1',
    '2026-11-26T07:46:36.123456Z_1 ',
  ])('refuses %j with a message that says to start again', (value) => {
    const result = exportCursorSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Cursor must be the X-Export-Next header of the previous page: start the export again',
    );
  });

  it('is optional in the query, an empty one as absent, next to the list’s filters', () => {
    expect(leadExportQuerySchema.parse({ search: 'sam', cursor: '' })).toEqual({ search: 'sam' });
    expect(leadExportQuerySchema.safeParse({ from: '2026-02-01', to: '2026-01-01' }).success).toBe(false);
  });

  it('keeps a page far under the 6 MB Netlify lets an answer carry', () => {
    expect(LEAD_EXPORT.pageBytes).toBeLessThanOrEqual(6_000_000 / 2);
  });
});

describe('fetchLeadExport', () => {
  it('asks for each page after the last with the filters, and gives the bodies in order with progress', async () => {
    const asked: string[] = [];
    const answers = [
      page('\uFEFFName\r\na\r\nb\r\n', 2, { [EXPORT_HEADERS.total]: '3', [EXPORT_HEADERS.next]: 'c1' }),
      page('c\r\n', 1),
    ];
    const progress: LeadExportProgress[] = [];
    const bodies = await fetchLeadExport(
      '/api/leads/export.csv',
      { search: 'a b', source: '' },
      (url) => {
        asked.push(url);
        const answer = answers.shift();
        if (!answer) throw new Error('asked once too often');
        return Promise.resolve(answer);
      },
      (step) => progress.push(step),
    );
    expect(asked).toEqual(['/api/leads/export.csv?search=a+b', '/api/leads/export.csv?search=a+b&cursor=c1']);
    const file = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Blob(bodies).arrayBuffer());
    expect(file).toBe('\uFEFFName\r\na\r\nb\r\nc\r\n');
    expect(progress).toEqual([
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
  });

  it('ends with the API’s message when a page is refused', async () => {
    const refused = new Response(JSON.stringify({ success: false, error: 'Please log in', fields: {} }), {
      status: 401,
    });
    const failure = fetchLeadExport('/api/leads/export.csv', {}, () => Promise.resolve(refused));
    await expect(failure).rejects.toThrow(new LeadExportError(401, 'Please log in'));
  });

  it('stops rather than loop when a page does not move on', async () => {
    const stuck = () => Promise.resolve(page('a\r\n', 1, { [EXPORT_HEADERS.next]: 'same' }));
    await expect(fetchLeadExport('/x', {}, stuck)).rejects.toThrow('Unexpected answer from the server');
    const empty = () => Promise.resolve(page('', 0, { [EXPORT_HEADERS.next]: 'c' }));
    await expect(fetchLeadExport('/x', {}, empty)).rejects.toThrow('Unexpected answer from the server');
    const unlabelled = () => Promise.resolve(new Response('a\r\n'));
    await expect(fetchLeadExport('/x', {}, unlabelled)).rejects.toThrow('Unexpected answer from the server');
  });
});
