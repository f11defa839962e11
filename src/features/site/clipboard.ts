/**
 * Puts `text` on the clipboard. Where the browser refuses (older browsers, insecure origins), the
 * link is shown in a prompt, selected, so the visitor can copy it by hand.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    window.prompt('Copy this link:', text);
  }
}
