import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetVisitor, rememberedVisitor, rememberVisitor } from './remembered-visitor.ts';

const dana = { first_name: 'Dana', last_name: 'Lopez', email: 'dana@example.org', phone: '6315550199' };

describe('the visitor remembered for an agent (newcomer audit M2)', () => {
  // The browser's storage, as a map (the unit tests run in Node).
  beforeEach(() => {
    const kept = new Map<string, string>();
    vi.stubGlobal('window', {
      localStorage: {
        getItem: (key: string) => kept.get(key) ?? null,
        setItem: (key: string, value: string) => kept.set(key, value),
        removeItem: (key: string) => kept.delete(key),
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is kept per agent and forgotten on "Not you?"', () => {
    rememberVisitor(1, dana);
    expect(rememberedVisitor(1)).toEqual(dana);
    expect(rememberedVisitor(2)).toBeNull();
    forgetVisitor(1);
    expect(rememberedVisitor(1)).toBeNull();
  });

  it('reads a stored value that no longer fits as nobody', () => {
    window.localStorage.setItem('agent-page.visitor.v1.1', JSON.stringify({ ...dana, email: '' }));
    expect(rememberedVisitor(1)).toBeNull();
    window.localStorage.setItem('agent-page.visitor.v1.1', '{not json');
    expect(rememberedVisitor(1)).toBeNull();
  });
});

describe('a browser that refuses storage', () => {
  it('remembers nobody and does not fail', () => {
    vi.stubGlobal('window', {
      localStorage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
        removeItem: () => {
          throw new Error('denied');
        },
      },
    });
    rememberVisitor(1, dana);
    expect(rememberedVisitor(1)).toBeNull();
    forgetVisitor(1);
    vi.unstubAllGlobals();
  });
});
