import { describe, expect, it } from 'vitest';
import { addAgentSchema } from '../../admin/admin-agents.ts';
import { profileSchema } from '../../agents/profile.ts';
import { signupSchema } from '../../auth/public/auth-schemas.ts';
import { sendEstimateRequestSchema } from '../../email/send-estimate.ts';
import { estimateRequestSchema } from '../../net-sheet/public/estimate-request.ts';
import { agentPageLeadSchema, contactLeadSchema, estimatePageLeadSchema } from '../../leads/public/lead.ts';
import { nameCharactersMessage, personName, personNameProblem } from './person-name.ts';

const ACCEPTED = ["O'Brien", 'O’Brien', 'Anne-Marie', 'J.R. Smith', 'José', 'Zoe\u0308', '李小龍', 'Nguyễn Văn An'];
const REFUSED = ['😀😀 Bob', '🙂', 'Bob2', '<b>Bob</b>', 'Bob & Sue', 'Bob_Smith'];

/** The message each form's schema gives for `name` in its name field, or undefined when taken. */
const FORMS: [string, (name: string) => string | undefined][] = [
  [
    'home calculator',
    (name) =>
      issue(
        estimateRequestSchema.safeParse({ agent_slug: 'a', sale_price: 500000, recipient_name: name }),
        'recipient_name',
      ),
  ],
  ['contact', (name) => issue(contactLeadSchema.safeParse({ firstName: name }), 'firstName')],
  ['unlock', (name) => issue(agentPageLeadSchema.safeParse({ first_name: name }), 'first_name')],
  ['send by e-mail', (name) => issue(sendEstimateRequestSchema.safeParse({ recipient_name: name }), 'recipient_name')],
  ['estimate page', (name) => issue(estimatePageLeadSchema.safeParse({ name }), 'name')],
  ['sign-up', (name) => issue(signupSchema.safeParse({ first_name: name }), 'first_name')],
  ['profile', (name) => issue(profileSchema.safeParse({ first_name: name }), 'first_name')],
  ['admin add agent', (name) => issue(addAgentSchema.safeParse({ first_name: name }), 'first_name')],
];

function issue(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
): string | undefined {
  return result.error?.issues.find((each) => each.path[0] === field)?.message;
}

describe('one name rule for every form (audit minor 5)', () => {
  it.each(ACCEPTED)('takes %s', (name) => {
    expect(personName('First name', 50).safeParse(name).success).toBe(true);
    for (const [form, check] of FORMS) expect(check(name), form).toBeUndefined();
  });

  it.each(REFUSED)('refuses %s everywhere, in the same words', (name) => {
    expect(personNameProblem('First name', 50, name)).toBe(nameCharactersMessage('First name'));
    for (const [form, check] of FORMS)
      expect(check(name), form).toMatch(/can only contain letters, spaces, apostrophes, hyphens and periods$/);
  });

  it('refuses a web address in a name (it goes into e-mails)', () => {
    expect(personName('Name', 100).safeParse('Bob example.com').success).toBe(false);
  });

  it('keeps the calculator name optional', () => {
    expect(
      estimateRequestSchema.parse({ agent_slug: 'a', sale_price: 500000, recipient_name: '' }).recipient_name,
    ).toBeNull();
  });
});
