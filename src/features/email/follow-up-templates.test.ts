import { describe, expect, it } from 'vitest';
import type { Estimate } from '../net-sheet/public/estimate-request.ts';
import { followUpTemplates, MAX_SMS_LENGTH, templatesRequestSchema } from './follow-up-templates.ts';
import { WORKED_EXAMPLE } from '../net-sheet/worked-example.fixture.ts';

const estimate: Estimate = WORKED_EXAMPLE;
const siteUrl = 'https://homes.example.com';
const link = `${siteUrl}/estimate/${estimate.uuid}`;

describe('followUpTemplates', () => {
  const templates = followUpTemplates({ estimate, firstName: 'Dana', senderName: 'Alex Morgan', siteUrl });

  it("builds the subject, body and SMS from the estimate's figures", () => {
    expect(templates.email_subject).toBe('Dana, your estimated net proceeds: $279,341.00');
    for (const text of [templates.email_body, templates.sms]) {
      expect(text).toContain('Dana');
      expect(text).toContain('Alex Morgan');
      expect(text).toContain('$780,200.00');
      expect(text).toContain('$450,000.00');
      expect(text).toContain('$279,341.00');
      expect(text).toContain(link);
    }
    expect(templates.email_body.startsWith('Hi Dana,\n')).toBe(true);
    expect(templates.email_body.endsWith('Best regards,\nAlex Morgan')).toBe(true);
    expect(templates.sms.length).toBeLessThanOrEqual(MAX_SMS_LENGTH);
  });

  it('says what the seller brings to closing when the net is negative', () => {
    const under = followUpTemplates({
      estimate: { ...estimate, mortgage_payoff: 800000, net_to_seller: -70659 },
      firstName: 'Dana',
      senderName: 'Alex',
      siteUrl,
    });
    expect(under.email_subject).toBe('Dana, your home sale estimate');
    expect(under.email_body).toContain('you would need to bring about $70,659.00 to closing');
    expect(under.sms).toContain("you'd bring about $70,659.00 to closing");
    expect(under.sms).not.toContain('-$');
  });

  it('keeps the SMS within 320 characters with the longest names and largest figures', () => {
    const huge = { ...estimate, sale_price: 100_000_000, mortgage_payoff: 99_999_999.99, net_to_seller: -6_000_925 };
    for (const long of [
      followUpTemplates({ estimate: huge, firstName: 'F'.repeat(100), senderName: 'S'.repeat(100), siteUrl }),
      followUpTemplates({
        estimate: huge,
        firstName: 'F'.repeat(100),
        senderName: 'S'.repeat(100),
        siteUrl: `https://${'x'.repeat(300)}.example.com`,
      }),
    ]) {
      expect(long.sms.length).toBeLessThanOrEqual(MAX_SMS_LENGTH);
      expect(long.sms).toContain('$100,000,000.00');
      expect(long.email_body).toContain('F'.repeat(100));
    }
  });

  it('keeps the subject on one line', () => {
    const odd = followUpTemplates({ estimate, firstName: 'Dana\nBcc: x', senderName: 'Alex', siteUrl });
    expect(odd.email_subject).toBe('Dana Bcc: x, your estimated net proceeds: $279,341.00');
  });
});

describe('templatesRequestSchema', () => {
  it('trims the names', () => {
    expect(templatesRequestSchema.parse({ uuid: estimate.uuid, first_name: ' Dana ', sender_name: ' Alex ' })).toEqual({
      uuid: estimate.uuid,
      first_name: 'Dana',
      sender_name: 'Alex',
    });
  });

  it.each([
    [{ uuid: 'nope', first_name: 'Dana', sender_name: 'Alex' }, 'Estimate id is not valid'],
    [{ first_name: 'Dana', sender_name: 'Alex' }, 'Estimate id is required'],
    [{ uuid: estimate.uuid, first_name: '  ', sender_name: 'Alex' }, 'First name is required'],
    [
      { uuid: estimate.uuid, first_name: 'D'.repeat(101), sender_name: 'Alex' },
      'First name must be at most 100 characters',
    ],
    [{ uuid: estimate.uuid, first_name: 'Dana', sender_name: 5 }, 'Sender name is required'],
  ])('refuses %o', (input, message) => {
    const result = templatesRequestSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});
