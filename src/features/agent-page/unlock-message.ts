/**
 * What the agent page says under an unlocked estimate about its e-mail: only what the server did
 * (issue 23, newcomer audit M3: "We have e-mailed this estimate" was shown when the address's hourly
 * cap had stopped it).
 */
import { waitText } from '../../ui/wait-text.ts';
import type { LeadAnswer } from '../leads/public/lead.ts';

export function unlockMessage(email: string, emailed: LeadAnswer['estimate_email'], agentFirstName: string): string {
  const inTouch = `${agentFirstName} will be in touch.`;
  switch (emailed.status) {
    case 'queued':
    case 'already_sent':
      return `We have e-mailed this estimate to ${email}. ${inTouch}`;
    case 'limited':
      return (
        `We could not e-mail this estimate to ${email}: that address has been sent as many estimates as we ` +
        `allow in an hour. You can download the PDF now, or unlock again ${waitText(emailed.retry_after_seconds)} ` +
        `to have it e-mailed. ${inTouch}`
      );
    case 'none':
      return inTouch;
  }
}
