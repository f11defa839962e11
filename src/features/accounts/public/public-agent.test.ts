import { describe, expect, it } from 'vitest';
import { isProfileComplete, missingProfileFields } from './public-agent.ts';

const full = { first_name: 'Riley', last_name: 'Shaw', brokerage: 'Shore Homes', professional_title: 'Broker' };

describe('what the calculator page still needs (newcomer audit M6)', () => {
  it('names only the empty fields, in the order of the profile form', () => {
    expect(missingProfileFields(full)).toEqual([]);
    expect(isProfileComplete(full)).toBe(true);
    const keys = (agent: typeof full | Record<keyof typeof full, string | null>) =>
      missingProfileFields(agent).map(({ key }) => key);
    expect(keys({ ...full, professional_title: null })).toEqual(['professional_title']);
    expect(keys({ ...full, brokerage: '  ', first_name: '' })).toEqual(['first_name', 'brokerage']);
    expect(isProfileComplete({ ...full, brokerage: null })).toBe(false);
  });
});
