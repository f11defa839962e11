import type { Env } from './env.ts';

/** The agent the public pages are branded around; identity comes from configuration. */
export interface FeaturedAgent {
  firstName: string;
  lastName: string;
  fullName: string;
  slug: string;
  email: string;
  phone: string;
  licenseNumber: string;
  professionalTitle: string;
  brokerage: string;
  website: string;
  office: { street: string; city: string; state: string; zip: string };
}

export function featuredAgentFrom(env: Env): FeaturedAgent {
  return {
    firstName: env.FEATURED_AGENT_FIRST_NAME,
    lastName: env.FEATURED_AGENT_LAST_NAME,
    fullName: `${env.FEATURED_AGENT_FIRST_NAME} ${env.FEATURED_AGENT_LAST_NAME}`,
    slug: env.FEATURED_AGENT_SLUG,
    email: env.FEATURED_AGENT_EMAIL,
    phone: env.FEATURED_AGENT_PHONE,
    licenseNumber: env.FEATURED_AGENT_LICENSE,
    professionalTitle: env.FEATURED_AGENT_TITLE,
    brokerage: env.FEATURED_AGENT_BROKERAGE,
    website: env.FEATURED_AGENT_WEBSITE,
    office: {
      street: env.FEATURED_AGENT_OFFICE_STREET,
      city: env.FEATURED_AGENT_OFFICE_CITY,
      state: env.FEATURED_AGENT_OFFICE_STATE,
      zip: env.FEATURED_AGENT_OFFICE_ZIP,
    },
  };
}
