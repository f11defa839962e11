/**
 * Inside /embed/{slug}: tells the host page how tall the calculator is, so embed.js sizes the frame
 * to it and the frame never scrolls inside the page (decision 0058). The message goes only to the
 * origin of the `host` parameter embed.js gave (never '*'): a page that framed the calculator
 * without it, or under another address, learns nothing. The frame-ancestors header has already
 * refused any host not on the agent's list.
 */
import { HEIGHT_MESSAGE, hostOriginOf } from './embed-links.ts';

export function postFrameHeight(): void {
  if (window.parent === window) return;
  const target = hostOriginOf(new URLSearchParams(window.location.search).get('host'));
  if (!target) return;
  // Where the browser says who framed the page (Chromium, Safari), it must be the page named.
  const framedBy = window.location.ancestorOrigins?.[0];
  if (framedBy !== undefined && framedBy !== target) return;
  let last = 0;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, target);
  };
  post();
  window.addEventListener('load', post);
  // The island's results, the unlock form and the detailed sheet change the height as they open.
  new ResizeObserver(post).observe(document.body);
}
