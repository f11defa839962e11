import { describe, expect, it } from 'vitest';
import { applyCaptures, headersFor, matchPath, parseHeaders, parseRedirects } from './netlify-rules.ts';

describe('_redirects', () => {
  it('reads rules with statuses, force and comments', () => {
    expect(parseRedirects('# shells\n/estimate/*  /estimate/index.html  200\n/old /new\n/x /y 302!\n')).toEqual([
      { from: '/estimate/*', to: '/estimate/index.html', status: 200, force: false },
      { from: '/old', to: '/new', status: 301, force: false },
      { from: '/x', to: '/y', status: 302, force: true },
    ]);
  });

  it('matches splats and placeholders and fills them in', () => {
    expect(matchPath('/estimate/*', '/estimate/abc')).toEqual({ splat: 'abc' });
    expect(matchPath('/estimate/*', '/estimates/abc')).toBeUndefined();
    const captures = matchPath('/r/:slug', '/r/alexmorgan');
    expect(captures).toEqual({ slug: 'alexmorgan' });
    expect(applyCaptures('/agents/:slug/:splat', { slug: 'a', splat: 'b/c' })).toBe('/agents/a/b/c');
  });
});

describe('_headers', () => {
  it('collects the headers of every matching rule', () => {
    const rules = parseHeaders(
      '/*\n  X-Frame-Options: DENY\n  Referrer-Policy: same-origin\n/_astro/*\n  Cache-Control: immutable\n',
    );
    expect(headersFor(rules, '/_astro/a.js')).toEqual([
      ['X-Frame-Options', 'DENY'],
      ['Referrer-Policy', 'same-origin'],
      ['Cache-Control', 'immutable'],
    ]);
    expect(headersFor(rules, '/')).toHaveLength(2);
  });

  it('lets a later matching rule replace a header an earlier one set', () => {
    const rules = parseHeaders(
      '/*\n  Referrer-Policy: strict-origin-when-cross-origin\n  X-Frame-Options: DENY\n' +
        '/estimate/*\n  referrer-policy: no-referrer\n  X-Robots-Tag: noindex, nofollow\n',
    );
    expect(headersFor(rules, '/estimate/abc')).toEqual([
      ['X-Frame-Options', 'DENY'],
      ['referrer-policy', 'no-referrer'],
      ['X-Robots-Tag', 'noindex, nofollow'],
    ]);
    expect(headersFor(rules, '/r/abc')).toEqual([
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
      ['X-Frame-Options', 'DENY'],
    ]);
  });
});
