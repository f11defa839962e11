import type { ReactNode } from 'react';

interface NoticeProps {
  /** A success is announced politely (role="status"), a failure at once (role="alert"). */
  tone: 'success' | 'error';
  message: string | null;
  /**
   * Given, the notice floats at the bottom of the screen with a close button: for messages that
   * outlive the modal they came from, so a visitor on a phone sees them wherever they scrolled.
   */
  onDismiss?: (() => void) | undefined;
  /** More than the sentence, shown under it with the message (a form's list of fields to fix). */
  children?: ReactNode;
}

/**
 * How the public forms say how things went, in the page rather than in a browser dialog that
 * blocks a phone until dismissed. The live region is rendered even while empty so that a screen
 * reader announces the message when it arrives.
 */
export function Notice({ tone, message, onDismiss, children }: NoticeProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`notice notice-${tone}${onDismiss ? ' notice-floating' : ''}`}
    >
      {message ? (
        <>
          <p>{message}</p>
          {children}
          {onDismiss ? (
            <button type="button" className="notice-close" aria-label="Dismiss message" onClick={onDismiss}>
              ×
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
