import { describe, expect, it } from 'vitest';
import { compare, type Answer, type ParityRow } from './parity.ts';

const row: ParityRow = {
  name: 'a page',
  path: '/',
  status: 200,
  expect: { 'x-robots-tag': 'noindex' },
  cli: { headers: ['cache-control'], why: 'the CLI sends its own' },
};
const answer = (status: number, headers: Answer['headers']): Answer => ({ status, headers });

describe('the parity table', () => {
  it('accepts equal answers that meet the row, whatever the CLI does with a header it is known to get wrong', () => {
    const own = answer(200, { 'x-robots-tag': 'noindex', 'cache-control': 'public, max-age=0, must-revalidate' });
    const cli = answer(200, { 'x-robots-tag': 'noindex', 'cache-control': 'public, max-age=0' });
    expect(compare([row], [cli], [own])).toEqual([]);
  });

  it('names a status either server gets wrong', () => {
    const problems = compare(
      [row],
      [answer(500, { 'x-robots-tag': 'noindex' })],
      [answer(200, { 'x-robots-tag': 'noindex' })],
    );
    expect(problems).toEqual(['a page: netlify serve answered 500, not 200']);
  });

  it('names a header that differs between the servers, or that the row wants otherwise', () => {
    const own = answer(200, { 'x-robots-tag': 'noindex', 'x-frame-options': 'DENY' });
    const cli = answer(200, { 'x-robots-tag': 'noindex' });
    expect(compare([row], [cli], [own])).toEqual([
      'a page: x-frame-options differs: netlify serve (absent), npm start DENY',
    ]);
    expect(compare([row], [own], [answer(200, {})])).toContain(
      "a page: npm start's x-robots-tag is (absent), wanted noindex",
    );
  });

  it('checks a header the CLI gets wrong on the project server against the documented value', () => {
    const strict: ParityRow = { ...row, expect: { 'cache-control': 'public, max-age=0, must-revalidate' } };
    const problems = compare([strict], [answer(200, {})], [answer(200, { 'cache-control': 'no-store' })]);
    expect(problems).toEqual([
      "a page: npm start's cache-control is no-store, wanted public, max-age=0, must-revalidate",
    ]);
  });
});
