import { describe, expect, it } from 'vitest';
import { LIMITS, TooManyAttempts } from './rate-limit.server.ts';

describe('rate limits', () => {
  it('has the limits of the issue', () => {
    expect(LIMITS).toEqual({
      loginPerAccountClient: { limit: 10, windowSeconds: 900 },
      loginPerIp: { limit: 30, windowSeconds: 900 },
      signupPerIp: { limit: 10, windowSeconds: 3600 },
      forgotPerIp: { limit: 10, windowSeconds: 3600 },
      forgotPerEmail: { limit: 5, windowSeconds: 3600 },
      resendPerIp: { limit: 10, windowSeconds: 3600 },
      resendPerEmail: { limit: 5, windowSeconds: 3600 },
      verifyPerIp: { limit: 30, windowSeconds: 3600 },
      emailChangePerAgent: { limit: 5, windowSeconds: 3600 },
      resetPerIp: { limit: 30, windowSeconds: 3600 },
      // An admin's resend of an agent's invitation (issue 23, minor 25).
      invitationPerAgent: { limit: 5, windowSeconds: 3600 },
    });
  });

  it('says how many minutes to wait, rounded up', () => {
    expect(new TooManyAttempts(1).message).toBe('Too many attempts. Please try again in 1 minute.');
    expect(new TooManyAttempts(60).message).toBe('Too many attempts. Please try again in 1 minute.');
    expect(new TooManyAttempts(61).message).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(new TooManyAttempts(900).message).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(new TooManyAttempts(900).status).toBe(429);
    expect(new TooManyAttempts(900).retryAfterSeconds).toBe(900);
  });
});
