/** schema.org JSON-LD for the public pages. Sold homes are facts about the past, not offers. */

export interface AgentIdentity {
  fullName: string;
  phone: string;
  email: string;
  licenseNumber: string;
  brokerage: string;
  website: string;
  office: { street: string; city: string; state: string; zip: string };
}

export function realEstateAgentJsonLd(agent: AgentIdentity, pageUrl: string, areaServed: string[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    name: agent.fullName,
    url: pageUrl,
    telephone: `+1${agent.phone}`,
    email: agent.email,
    parentOrganization: { '@type': 'Organization', name: agent.brokerage },
    address: {
      '@type': 'PostalAddress',
      streetAddress: agent.office.street,
      addressLocality: agent.office.city,
      addressRegion: agent.office.state,
      postalCode: agent.office.zip,
      addressCountry: 'US',
    },
    areaServed: areaServed.map((name) => ({ '@type': 'Place', name })),
    identifier: { '@type': 'PropertyValue', propertyID: 'NYS real estate license', value: agent.licenseNumber },
  };
}

export function placeJsonLd(place: {
  name: string;
  county: string;
  latitude: number;
  longitude: number;
  zipCodes: string[];
  url: string;
}) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Place',
    name: `${place.name}, NY`,
    url: place.url,
    geo: { '@type': 'GeoCoordinates', latitude: place.latitude, longitude: place.longitude },
    address: {
      '@type': 'PostalAddress',
      addressLocality: place.name,
      addressRegion: 'NY',
      postalCode: place.zipCodes[0],
      addressCountry: 'US',
    },
    containedInPlace: { '@type': 'AdministrativeArea', name: `${place.county} County, New York` },
  };
}

export function breadcrumbJsonLd(crumbs: { name: string; url: string }[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: crumb.url,
    })),
  };
}

/** JSON for a <script type="application/ld+json">, safe against a closing tag in the data. */
export const jsonLdText = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
