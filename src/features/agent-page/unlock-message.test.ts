import { describe, expect, it } from 'vitest';
import { unlockMessage } from './unlock-message.ts';

describe('unlockMessage', () => {
  it('says the estimate was e-mailed only when the server queued it (or had sent it to this lead)', () => {
    expect(unlockMessage('dana@example.org', { status: 'queued', retry_after_seconds: null }, 'Alex')).toBe(
      'We have e-mailed this estimate to dana@example.org. Alex will be in touch.',
    );
    expect(unlockMessage('dana@example.org', { status: 'already_sent', retry_after_seconds: null }, 'Alex')).toMatch(
      /^We have e-mailed/,
    );
  });

  it('says a capped e-mail was not sent, and when it can be tried again', () => {
    const text = unlockMessage('dana@example.org', { status: 'limited', retry_after_seconds: 2_220 }, 'Alex');
    expect(text).toContain('We could not e-mail this estimate to dana@example.org');
    expect(text).toContain('unlock again in 37 minutes');
    expect(text).not.toContain('We have e-mailed');
  });

  it('says nothing of e-mail when none was asked for', () => {
    expect(unlockMessage('dana@example.org', { status: 'none', retry_after_seconds: null }, 'Alex')).toBe(
      'Alex will be in touch.',
    );
  });
});
