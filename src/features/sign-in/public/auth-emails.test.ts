import { describe, expect, it } from 'vitest';
import {
  confirmEmailChangeEmail,
  emailChangeNoticeEmail,
  emailChangeTakenEmail,
  passwordResetEmail,
  resetPasswordUrl,
  verificationEmail,
  verifyEmailUrl,
} from './auth-emails.ts';

const token = 'AbC-_0123456789abcdefghijklmnopqrstuvwxyzAB';

describe('account e-mails', () => {
  it('verification: HTML and text with the link to /verify-email, greeting by first name', () => {
    const email = verificationEmail({ token, siteUrl: 'https://homes.example.com/', firstName: 'Pat' });
    const url = `https://homes.example.com/verify-email?token=${token}`;
    expect(verifyEmailUrl('https://homes.example.com/', token)).toBe(url);
    expect(email.subject).toBe('Verify your email for Long Island Net Proceeds');
    expect(email.html).toContain(`href="${url}"`);
    expect(email.html).toContain('Hi Pat,');
    expect(email.text).toContain(`Verify my email: ${url}`);
    expect(email.text).toContain('expires in 24 hours');
  });

  it('reset: the link to /reset-password, one hour, a neutral greeting without a name', () => {
    const email = passwordResetEmail({ token, siteUrl: 'https://homes.example.com' });
    const url = resetPasswordUrl('https://homes.example.com', token);
    expect(url).toBe(`https://homes.example.com/reset-password?token=${token}`);
    expect(email.html).toContain(`href="${url}"`);
    expect(email.text).toContain('Hello,');
    expect(email.text).toContain('expires in 1 hour.');
  });

  it('escapes what it interpolates in the HTML part', () => {
    const email = verificationEmail({ token, siteUrl: 'https://homes.example.com', firstName: '<b>Pat</b> & "Co"' });
    expect(email.html).not.toContain('<b>Pat</b>');
    expect(email.html).toContain('Hi &lt;b&gt;Pat&lt;/b&gt; &amp; &quot;Co&quot;,');
    expect(email.text).toContain('Hi <b>Pat</b> & "Co",');
  });

  it('an e-mail change: the new address gets only product words and its link; the old one the undo link', () => {
    const confirm = confirmEmailChangeEmail({ token, siteUrl: 'https://homes.example.com' });
    expect(confirm.text).toContain(`https://homes.example.com/confirm-email-change?token=${token}`);
    expect(confirm.text).toContain('Hello,');
    expect(confirm.text).toContain('expires in 24 hours');
    const taken = emailChangeTakenEmail({ siteUrl: 'https://homes.example.com' });
    expect(taken.text).toContain('already has an account, so nothing changed');
    expect(taken.text).not.toContain('token=');
    const notice = emailChangeNoticeEmail({
      token,
      siteUrl: 'https://homes.example.com',
      newEmail: 'new<b>@example.com',
      firstName: 'Pat',
    });
    expect(notice.text).toContain(`https://homes.example.com/undo-email-change?token=${token}`);
    expect(notice.text).toContain('for 7 days');
    expect(notice.html).toContain('new&lt;b&gt;@example.com');
  });
});
