import { Suspense, type ReactNode } from 'react';

/**
 * A dialog whose code is loaded when it is first opened (`React.lazy`), so a screen's first paint
 * and its blocking time carry only what it shows. While that code is on its way a status says so,
 * pinned to the bottom of the window, where it is seen wherever the control that opened the dialog
 * is; it fades in only after a moment (see .dialog-loading), so a quick load shows no flash.
 */
export function DialogOnDemand({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="dialog-loading">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
