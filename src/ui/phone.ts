/** The one way phone numbers are shown: (631) 555-0142 for 10 digits, or 11 starting with 1. */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (ten.length !== 10) return phone;
  return `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
}

export const telHref = (phone: string): string => `tel:+1${phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '')}`;

/**
 * A phone number formatted while it is typed: (631) 555-01… A leading 1 (the country code) is left
 * out, as no US area code starts with 1; the server stores the 10 digits.
 */
export function formatPhoneAsTyped(input: string): string {
  const digits = input.replace(/\D/g, '').replace(/^1/, '').slice(0, 10);
  if (digits === '') return '';
  if (digits.length <= 3) return `(${digits}`;
  if (digits.length <= 6) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
