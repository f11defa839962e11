/**
 * What the fake Follow Up Boss does with `POST /v1/events`: the body it accepts, the person it
 * matches (by e-mail, or by phone digits with first and last name), merges into or creates, and
 * its answer (201, 200, 204 for an archived source, 400 or 404).
 */
import * as z from 'zod';
import { errorMessage, json, type Answer, type FubAccount, type FubPerson } from './model.ts';

const contactSchema = z.looseObject({ value: z.string(), type: z.string().optional() });
const addressSchema = z.looseObject({
  type: z.string().optional(),
  street: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  code: z.string().optional(),
  country: z.string().optional(),
});
// Every field is optional in FUB's docs; what is sent must have the documented type.
export const eventSchema = z.looseObject({
  source: z.string().optional(),
  system: z.string().optional(),
  type: z.string().optional(),
  message: z.string().optional(),
  description: z.string().optional(),
  occurredAt: z.iso.datetime({ offset: true }).optional(),
  person: z
    .looseObject({
      id: z.number().int().optional(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      emails: z.array(contactSchema).optional(),
      phones: z.array(contactSchema).optional(),
      tags: z.array(z.string()).optional(),
      source: z.string().optional(),
      sourceUrl: z.string().optional(),
      price: z.number().optional(),
      addresses: z.array(addressSchema).optional(),
    })
    .optional(),
  // The zip (`code`) must be a string; bedrooms and the like come as numbers or strings.
  property: z.looseObject({ code: z.string().optional(), price: z.number().optional() }).optional(),
  campaign: z.looseObject({ source: z.string() }).optional(),
});
type EventBody = z.infer<typeof eventSchema>;
type EventPerson = NonNullable<EventBody['person']>;

/** A phone's digits, a leading US country code aside, so "+1 (631) 555-0100" is "6315550100". */
const phoneDigits = (value: string): string => {
  const digits = value.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
};
export const sameText = (a: string | undefined, b: string): boolean =>
  a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function matchPerson(people: FubPerson[], person: EventPerson): FubPerson | undefined {
  const emails = (person.emails ?? []).map((email) => email.value.trim().toLowerCase());
  const phones = (person.phones ?? []).map((phone) => phoneDigits(phone.value)).filter(Boolean);
  return people.find(
    (known) =>
      known.emails.some((email) => emails.includes(email.value.toLowerCase())) ||
      (sameText(person.firstName, known.firstName) &&
        sameText(person.lastName, known.lastName) &&
        known.phones.some((phone) => phones.includes(phoneDigits(phone.value)))),
  );
}

/** Adds the e-mails, phones, tags and addresses `person` brings that `known` lacks. */
function mergeInto(known: FubPerson, person: EventPerson, at: string): void {
  for (const email of person.emails ?? []) {
    if (known.emails.some((existing) => sameText(email.value, existing.value))) continue;
    known.emails.push({
      value: email.value.trim(),
      type: email.type ?? 'other',
      isPrimary: known.emails.length === 0,
    });
  }
  for (const phone of person.phones ?? []) {
    if (known.phones.some((existing) => phoneDigits(existing.value) === phoneDigits(phone.value))) continue;
    known.phones.push({
      value: phone.value.trim(),
      type: phone.type ?? 'other',
      status: 'Valid',
      isPrimary: known.phones.length === 0,
    });
  }
  for (const tag of person.tags ?? []) {
    if (!known.tags.some((existing) => sameText(tag, existing))) known.tags.push(tag);
  }
  for (const address of person.addresses ?? []) {
    const complete = {
      type: address.type ?? 'home',
      street: address.street ?? '',
      city: address.city ?? '',
      state: address.state ?? '',
      code: address.code ?? '',
      country: address.country ?? 'United States',
    };
    if (!known.addresses.some((existing) => JSON.stringify(existing) === JSON.stringify(complete))) {
      known.addresses.push(complete);
    }
  }
  known.updated = at;
  known.lastActivity = at;
}

/** The fake's state an event reads and changes. */
export interface EventWorld {
  peopleByKey: Map<string, FubPerson[]>;
  archived: ReadonlySet<string>;
  /** The next person's id (counted across accounts). */
  newPersonId: () => number;
}

export function acceptEvent(
  account: FubAccount,
  body: unknown,
  { peopleByKey, archived, newPersonId }: EventWorld,
): { answer: Answer; personId: number | null; type: string | null } {
  const parsed = eventSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `Invalid value for '${issue.path.join('.')}'.` : null;
    return {
      answer: errorMessage(400, where ?? 'The request body must be a JSON object.'),
      personId: null,
      type: null,
    };
  }
  const event = parsed.data;
  const type =
    event.type === 'Inquiry' ? (event.property ? 'Property Inquiry' : 'General Inquiry') : (event.type ?? null);
  const person = event.person;
  if (event.source !== undefined && archived.has(event.source)) {
    return { answer: { status: 204, body: '' }, personId: null, type };
  }
  if (!person) {
    // Not documented: FUB's examples always send a person, and an event needs someone to belong to.
    return { answer: errorMessage(400, 'A person is required.'), personId: null, type };
  }
  const people = peopleByKey.get(account.apiKey) ?? [];
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const known =
    person.id === undefined ? matchPerson(people, person) : people.find((candidate) => candidate.id === person.id);
  if (person.id !== undefined && !known) {
    return { answer: errorMessage(404, `Person with id ${person.id} not found.`), personId: null, type };
  }
  if (known) {
    mergeInto(known, person, at);
    return { answer: json(200, known), personId: known.id, type };
  }
  const firstName = person.firstName ?? '';
  const lastName = person.lastName ?? '';
  const created: FubPerson = {
    id: newPersonId(),
    created: at,
    updated: at,
    createdVia: 'API',
    lastActivity: at,
    name: `${firstName} ${lastName}`.trim(),
    firstName,
    lastName,
    stage: 'Lead',
    stageId: 2,
    // Set once, at creation: later events and PUT cannot change them (fact sheet §2).
    source: event.source ?? person.source ?? null,
    sourceUrl: person.sourceUrl ?? null,
    contacted: false,
    price: person.price ?? event.property?.price ?? 0,
    assignedLenderId: null,
    assignedLenderName: null,
    assignedUserId: account.user.id,
    assignedTo: account.user.name,
    tags: [],
    emails: [],
    phones: [],
    addresses: [],
  };
  mergeInto(created, person, at);
  people.push(created);
  return { answer: json(201, created), personId: created.id, type };
}
