import * as z from 'zod';
import CalculatorModal from '../estimate/public/CalculatorModal.tsx';
import ContactModal from '../leads/public/ContactModal.tsx';
import { LEAD_SOURCES } from '../leads/public/lead.ts';

/** What the page tells the modals, from data attributes on #page-modals (see SiteLayout). */
export const modalHostPropsSchema = z.object({
  agentSlug: z.string(),
  agentFirstName: z.string(),
  agentFullName: z.string(),
  mortgageRequired: z.enum(['true', 'false']).transform((value) => value === 'true'),
  leadSource: z.enum(LEAD_SOURCES),
  contactSubmitLabel: z.string(),
  /** A town page's town: the contact form's updates place starts with it. */
  homeTown: z.string().optional(),
});

export type ModalHostProps = z.output<typeof modalHostPropsSchema>;

/** The page's two modals; mounted on the first click that needs one (see page-actions.ts). */
export default function ModalHost(props: ModalHostProps) {
  return (
    <>
      <CalculatorModal
        agentSlug={props.agentSlug}
        agentFirstName={props.agentFirstName}
        mortgageRequired={props.mortgageRequired}
      />
      <ContactModal
        agentSlug={props.agentSlug}
        agentFullName={props.agentFullName}
        source={props.leadSource}
        submitLabel={props.contactSubmitLabel}
        homeTown={props.homeTown}
      />
    </>
  );
}
