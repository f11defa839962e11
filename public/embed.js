/* global window, document, console, HTMLScriptElement, URL */
/*
 * The agent's calculator on their own site (issue 26, decision 0058). Pasted as
 *   <script src="https://{site}/embed.js" data-agent="{slug}" async></script>
 * it puts the agent's calculator (/embed/{slug}) in a frame after itself and keeps the frame as tall
 * as the calculator, so the host page scrolls and the frame never does. Plain script, no framework:
 * it runs on pages this site does not control and costs the host page well under a kilobyte.
 * The frame is another origin: it reads nothing of the host page and the host page nothing of it;
 * the only message taken is the frame's height, from this site's origin and the frame itself.
 */
(function () {
  'use strict';
  var script = document.currentScript || document.querySelector('script[src$="/embed.js"][data-agent]');
  if (!script || !(script instanceof HTMLScriptElement)) return;
  var site = new URL(script.src, window.location.href).origin;
  var slug = script.getAttribute('data-agent') || '';
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/i.test(slug)) {
    console.warn('embed.js: data-agent must be the agent\u2019s page name, as /dashboard/embed shows it');
    return;
  }
  // The page's address without its query or fragment: they may hold a visitor's details.
  var host = window.location.origin + window.location.pathname;
  var frame = document.createElement('iframe');
  frame.src = site + '/embed/' + encodeURIComponent(slug) + '?host=' + encodeURIComponent(host);
  frame.title = 'Net to seller calculator';
  frame.setAttribute('loading', 'lazy');
  // The host page is given to the frame in its address; no referrer besides.
  frame.setAttribute('referrerpolicy', 'no-referrer');
  // Important: a host page's own iframe rules must not squeeze or hide the calculator.
  var style = {
    display: 'block',
    width: '100%',
    'max-width': '100%',
    height: '720px',
    border: '0',
    margin: '0',
    padding: '0',
    'color-scheme': 'light',
  };
  Object.keys(style).forEach(function (name) {
    frame.style.setProperty(name, style[name], 'important');
  });

  window.addEventListener('message', function (event) {
    if (event.origin !== site || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'netsheet:height') return;
    var height = data.height;
    if (typeof height !== 'number' || !isFinite(height)) return;
    // Bounded: a frame cannot make the host page absurdly tall.
    frame.style.setProperty('height', Math.min(Math.max(Math.ceil(height), 200), 12000) + 'px', 'important');
  });

  var place = function () {
    if (script.parentNode && script.parentNode !== document.head)
      script.parentNode.insertBefore(frame, script.nextSibling);
    else document.body.appendChild(frame);
  };
  if (document.body) place();
  else document.addEventListener('DOMContentLoaded', place);
})();
