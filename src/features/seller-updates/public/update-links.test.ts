import { describe, expect, it } from 'vitest';
import { updateLinkSigner, updateUrls } from './update-links.server.ts';

const signer = updateLinkSigner(new Uint8Array(32).fill(7));

describe('update links', () => {
  it('reads back what it signed', () => {
    const link = { subscriptionId: 42, period: 9, link: 'sheet' } as const;
    expect(signer.read(signer.token(link))).toEqual(link);
    expect(signer.read(signer.token({ subscriptionId: 1, period: 0, link: 'confirm' }))?.link).toBe('confirm');
  });

  it('refuses a token of another key, a changed payload and garbage', () => {
    const token = signer.token({ subscriptionId: 42, period: 9, link: 'sheet' });
    expect(updateLinkSigner(new Uint8Array(32).fill(8)).read(token)).toBeNull();
    const [, signature] = token.split('.');
    const forged = `${Buffer.from('43.9.sheet').toString('base64url')}.${signature}`;
    expect(signer.read(forged)).toBeNull();
    for (const bad of ['', '.', 'a.b.c', 'abc', `${token}.x`]) expect(signer.read(bad)).toBeNull();
  });

  it('builds the confirmation page and redirect URLs on the site origin', () => {
    const urls = updateUrls('https://example.test/', signer);
    expect(urls.confirm(5)).toMatch(/^https:\/\/example\.test\/updates\/confirm\?token=[\w-]+\.[\w-]{43}$/);
    const go = urls.go(5, 6, 'agent');
    const token = decodeURIComponent(go.split('/').at(-1) ?? '');
    expect(go.startsWith('https://example.test/api/updates/go/')).toBe(true);
    expect(signer.read(token)).toEqual({ subscriptionId: 5, period: 6, link: 'agent' });
  });
});
