/** The explorer's HTML: no inline script or style, so the CSP can forbid both. */
import type { Asset } from './assets';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function explorerPage(assets: Map<string, Asset>): string {
  const url = (name: string) => escape(assets.get(name)!.url);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fleetgraph explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${url('graphiql.css')}">
<link rel="stylesheet" href="${url('explorer.css')}">
</head>
<body>
<header class="fg-bar">
  <strong class="fg-title">Fleetgraph explorer</strong>
  <span class="fg-spacer"></span>
  <span id="fg-user" role="status">Checking sign-in…</span>
  <a id="fg-sign-in" class="fg-button" href="/explorer/login" hidden>Sign in</a>
  <button id="fg-sign-out" class="fg-button" type="button" hidden>Sign out</button>
</header>
<main id="graphiql" class="fg-graphiql">Loading GraphiQL…</main>
<script src="${url('react.js')}"></script>
<script src="${url('react-dom.js')}"></script>
<script src="${url('graphiql.js')}"></script>
<script src="${url('explorer.js')}"></script>
</body>
</html>
`;
}

export function messagePage(assets: Map<string, Asset>, title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Fleetgraph explorer</title>
<link rel="stylesheet" href="${escape(assets.get('explorer.css')!.url)}">
</head>
<body class="fg-message">
<main>
<h1>${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}
<p><a href="/explorer">Back to the explorer</a></p>
</main>
</body>
</html>
`;
}
