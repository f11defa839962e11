import { describe, expect, it } from 'vitest';
import { newLeadEmail } from '../email/public/templates.ts';
import { contactLeadSchema } from './public/lead.ts';

const form = {
  agent_slug: 'alexmorgan',
  firstName: 'Dana',
  lastName: 'Lopez',
  phone: '516-555-0123',
  email: 'dana@example.com',
  consent_marketing: true,
};

/** The contact form's optional message (newcomer audit minor 19). */
describe("the contact form's message", () => {
  it('is optional: empty or missing is no message', () => {
    expect(contactLeadSchema.parse(form).message).toBeNull();
    expect(contactLeadSchema.parse({ ...form, message: '   ' }).message).toBeNull();
  });

  it('is kept as the seller typed it (trimmed), markup and all, as plain text', () => {
    const message = '  Call after 5pm.\n<b>Not</b> on weekends & holidays.  ';
    expect(contactLeadSchema.parse({ ...form, message }).message).toBe(
      'Call after 5pm.\n<b>Not</b> on weekends & holidays.',
    );
  });

  it('takes at most 1,000 characters, and says so', () => {
    expect(contactLeadSchema.parse({ ...form, message: 'x'.repeat(1000) }).message).toHaveLength(1000);
    const result = contactLeadSchema.safeParse({ ...form, message: 'x'.repeat(1001) });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['message', 'Message must be at most 1000 characters'],
    ]);
  });

  it("reaches the agent's e-mail escaped in HTML and as typed in text", () => {
    const lead = contactLeadSchema.parse({ ...form, message: '<script>alert(1)</script> & "call me"' });
    const email = newLeadEmail({
      lead: {
        first_name: lead.firstName,
        last_name: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        address: lead.address,
        message: lead.message,
        source: lead.source,
        page_path: null,
      },
      agent: { first_name: 'Alex', last_name: 'Morgan', email: 'alex@example.com', phone: '5165550100' },
      siteUrl: 'http://127.0.0.1:4321',
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;call me&quot;');
    expect(email.text).toContain('<script>alert(1)</script> & "call me"');
  });
});
