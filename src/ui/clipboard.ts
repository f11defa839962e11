/**
 * Copies `url` to the clipboard and returns what to tell the visitor: `copied`, or, where the
 * browser refuses (older browsers, insecure origins), the link itself to copy by hand; shown in the
 * page, since a prompt dialog would block a phone.
 */
export async function copyLink(url: string, copied: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(url);
    return copied;
  } catch {
    return `Copy this link: ${url}`;
  }
}
