/**
 * The fixtures a request may name (read when each case is made), and the values of named fields
 * mixed in with random ones: real ids (or one past PostgreSQL's integer), slugs, form text.
 */
import fc from 'fast-check';
import type { Hints } from '../schema-arbitrary.ts';
import { base64, GARBAGE_FILES, type ImageSamples } from './bad-inputs.ts';
import { type DocOperation } from './operations.ts';

/** What the requests of an operation may name: read when each case is made, so they stay current. */
export interface Fixtures {
  agentSlug: () => string;
  agentId: () => number;
  agentEmail: () => string;
  password: () => string;
  estimateUuid: () => string;
  offersUuid: () => string;
  leadId: () => number;
  /** An agent the admin may deactivate or delete (never agent A or the admin). */
  spareAgentId: () => number;
  imageFile: () => string;
  unsubscribeToken: () => string;
  /** A's webhook endpoint, and the site's (the admin's). */
  endpointId: () => number;
  siteEndpointId: () => number;
  images: ImageSamples;
}

const lazy = <T>(read: () => T) => fc.constant(null).map(read);

/**
 * A real row's id, or now and then one just past PostgreSQL's integer (every id column's type): an
 * id schema without that bound let `"agent_id":8589934592` reach the database, a 500 (audit
 * 2026-11-26, finding 13).
 */
const orBeyondInt4 = (real: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  fc.oneof({ weight: 3, arbitrary: real }, fc.constantFrom(2_147_483_648, 8_589_934_592));

/** Values of named fields to mix in with random ones: the fixtures, and text a form would send. */
export function hintsFor(operation: DocOperation, fixtures: Fixtures): Hints {
  const pngUrl = `data:image/png;base64,${base64(fixtures.images.png)}`;
  const image = fc.oneof(
    fc.constant(pngUrl),
    fc.constantFrom(...GARBAGE_FILES).map((file) => `data:${file.type};base64,${base64(file.bytes)}`),
    fc.constantFrom(
      'data:image/png;base64,!!!!',
      'data:,',
      'data:image/png,raw',
      `data:image/png;base64,${'A'.repeat(3000)}`,
    ),
  );
  // Addresses as people have them (fc.emailAddress() makes valid RFC ones most forms refuse).
  const email = fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/),
      fc.constantFrom('example.com', 'example.org', 'mail.example.net'),
    )
    .map(([local, domain]) => `${local}@${domain}`);
  return (name) => {
    switch (name) {
      case 'agent_slug':
        return lazy(fixtures.agentSlug);
      case 'slug':
        return operation.path.startsWith('/api/towns/')
          ? fc.constantFrom('montauk', 'bay-shore', 'garden-city', 'no-such-town')
          : lazy(fixtures.agentSlug);
      case 'uuid':
        return operation.path.startsWith('/api/offers/') ? lazy(fixtures.offersUuid) : lazy(fixtures.estimateUuid);
      case 'estimate_uuid':
        return lazy(fixtures.estimateUuid);
      case 'id':
        if (operation.path.startsWith('/api/webhooks/')) return orBeyondInt4(lazy(fixtures.endpointId));
        if (operation.path.startsWith('/api/admin/webhooks/')) return orBeyondInt4(lazy(fixtures.siteEndpointId));
        return orBeyondInt4(
          operation.path.startsWith('/api/admin/agents/') ? lazy(fixtures.spareAgentId) : lazy(fixtures.leadId),
        );
      case 'url':
        // A webhook's address: one this machine refuses at once (a closed loopback port), names and
        // addresses the guard refuses, and names no test may resolve (tests/support/loopback-resolver.ts).
        return fc.constantFrom(
          'http://127.0.0.1:9/hook',
          'https://hooks.example.com/catch',
          'http://10.0.0.1/hook',
          'http://[::ffff:127.0.0.1]:9/',
          'ftp://127.0.0.1/x',
          'http://user:pw@127.0.0.1:9/',
        );
      case 'events':
        return fc.constantFrom(['lead.created'], ['lead.updated', 'seller.active'], [], ['lead.deleted']);
      case 'agent_id':
        return orBeyondInt4(lazy(fixtures.agentId));
      case 'agent':
        return orBeyondInt4(lazy(fixtures.agentId)).map(String);
      case 'lead_ids':
        return orBeyondInt4(lazy(fixtures.leadId)).map((id) => [id]);
      case 'file':
        return lazy(fixtures.imageFile);
      case 'town':
        return fc.constantFrom('montauk', 'Bay Shore', 'garden-city', 'Nowhere');
      case 'email':
        return operation.path === '/api/auth/login' ? lazy(fixtures.agentEmail) : email;
      case 'recipient_email':
        return email;
      case 'password':
        return operation.path === '/api/auth/login' ? lazy(fixtures.password) : undefined;
      case 'token':
        return operation.path === '/api/email/unsubscribe' ? lazy(fixtures.unsubscribeToken) : undefined;
      case 'imageData':
      case 'image':
        return image;
      case 'phone':
        return fc.constantFrom('(631) 555-0142', '516-555-0199', '+1 631 555 0100');
      case 'firstName':
      case 'first_name':
      case 'name':
      case 'recipient_name':
      case 'sender_name':
        return fc.constantFrom('Robin', "O'Neil", 'Anne-Marie', 'J. R.');
      case 'lastName':
      case 'last_name':
        return fc.constantFrom('Seller', 'Smith-Jones');
      case 'consent_marketing':
        return fc.constant(true);
      default:
        return undefined;
    }
  };
}
