/**
 * What a page opened from an e-mailed link says once it has acted (verify an address, confirm or
 * undo an e-mail change): the outcome, announced (status) or alerted (alert), and where to go next.
 */
export function LinkOutcome({
  role,
  message,
  href,
  label,
  primary = false,
}: {
  role: 'status' | 'alert';
  message: string;
  href: string;
  label: string;
  /** The next step the outcome calls for (a button), or a plain way out (a link). */
  primary?: boolean;
}) {
  return (
    <>
      <p role={role}>{message}</p>
      <a className={primary ? 'button button-primary' : undefined} href={href}>
        {label}
      </a>
    </>
  );
}
