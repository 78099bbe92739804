/**
 * The page shell of every SSO page: plain server-rendered HTML, no JavaScript, inline CSS (no
 * CDN), a visible focus ring, labels on every field, one h1 per page, and every interpolated
 * value HTML-escaped (html`` escapes; raw() marks trusted markup).
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export class Raw {
  constructor(readonly value: string) {}
}
export const raw = (value: string) => new Raw(value);

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

function render(value: unknown): string {
  if (value instanceof Raw) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Raw(out);
}

const CSS = `
:root { color-scheme: light; --ink:#17202a; --muted:#5b6675; --line:#d9dee5; --brand:#1f5eff; --brand-dark:#1848c4; --bg:#f3f5f8; --danger:#b42318; }
* { box-sizing: border-box; }
body { margin:0; min-height:100vh; display:flex; align-items:center; justify-content:center; background:var(--bg); color:var(--ink);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { width:100%; max-width:26rem; margin:2rem 1rem; background:#fff; border:1px solid var(--line); border-radius:12px; padding:2rem;
  box-shadow:0 1px 2px rgba(16,24,40,.06), 0 8px 24px rgba(16,24,40,.06); }
.brand { display:flex; align-items:center; gap:.5rem; font-weight:600; color:var(--muted); font-size:.9rem; margin-bottom:1.25rem; }
.brand svg { flex:none; }
h1 { font-size:1.4rem; line-height:1.3; margin:0 0 .5rem; }
p { margin:.25rem 0 1rem; color:var(--muted); }
label { display:block; font-weight:600; font-size:.9rem; margin:1rem 0 .35rem; }
main.wide { max-width:48rem; }
input[type=email], input[type=password], input[type=text], textarea { width:100%; padding:.65rem .75rem; font:inherit; color:inherit; border:1px solid #b8c0cc; border-radius:8px; background:#fff; }
textarea { min-height:6rem; font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:.9rem; }
fieldset { border:1px solid var(--line); border-radius:8px; margin:1rem 0 0; padding:.5rem .9rem .75rem; }
legend { font-weight:600; font-size:.9rem; padding:0 .25rem; }
fieldset label { display:flex; gap:.5rem; align-items:center; font-weight:400; margin:.4rem 0; }
.hint { font-size:.85rem; color:var(--muted); margin:.35rem 0 0; }
table { width:100%; border-collapse:collapse; margin:1rem 0; font-size:.95rem; }
th, td { text-align:left; padding:.6rem .5rem; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:.8rem; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); }
code, .secret { font-family:ui-monospace, SFMono-Regular, Menlo, monospace; font-size:.85rem; word-break:break-all; }
.secret { display:block; background:#f6f8fa; border:1px solid var(--line); border-radius:8px; padding:.65rem .75rem; margin:.35rem 0 1rem; color:var(--ink); }
.notice { border:1px solid #fedf89; background:#fffaeb; border-radius:8px; padding:.65rem .75rem; margin:1rem 0; }
.toolbar { display:flex; justify-content:space-between; align-items:center; gap:1rem; flex-wrap:wrap; }
a { color:var(--brand-dark); }
a.button { display:inline-block; text-decoration:none; background:var(--brand); color:#fff; font-weight:600; padding:.55rem .9rem; border-radius:8px; }
.inline { display:inline; }
.danger { background:#fff; color:var(--danger); border-color:#f3b8b3; }
.link { background:none; border:0; padding:0; color:var(--brand-dark); text-decoration:underline; font-weight:400; }
.row-actions { display:flex; gap:.75rem; flex-wrap:wrap; margin-top:1.5rem; }
button { font:inherit; font-weight:600; padding:.65rem 1rem; border-radius:8px; border:1px solid transparent; cursor:pointer; }
.primary { background:var(--brand); color:#fff; width:100%; margin-top:1.5rem; }
.primary:hover { background:var(--brand-dark); }
.secondary { background:#fff; color:var(--ink); border-color:#b8c0cc; }
.actions { display:flex; gap:.75rem; margin-top:1.5rem; }
.actions button { flex:1; margin:0; }
:focus-visible { outline:3px solid #ffbf47; outline-offset:2px; }
input:focus-visible { border-color:var(--brand); }
.alert { border:1px solid #f3b8b3; background:#fef3f2; color:var(--danger); border-radius:8px; padding:.65rem .75rem; margin:1rem 0 0; }
ul.scopes { list-style:none; padding:0; margin:1rem 0; border:1px solid var(--line); border-radius:8px; }
ul.scopes li { padding:.65rem .75rem; border-top:1px solid var(--line); }
ul.scopes li:first-child { border-top:0; }
ul.scopes strong { display:block; }
ul.scopes span { color:var(--muted); font-size:.9rem; }
.app { color:var(--ink); }
small { display:block; color:var(--muted); margin-top:1rem; font-size:.8rem; }
`;

const LOGO = `<svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true"><rect width="24" height="24" rx="6" fill="#1f5eff"/><path d="M7 16.5 12 7l5 9.5" stroke="#fff" stroke-width="2.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

export function page(title: string, body: Raw, options: { wide?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Fleetgraph</title>
<style>${CSS}</style>
</head>
<body>
<main${options.wide ? ' class="wide"' : ''}>
<div class="brand">${LOGO}<span>Fleetgraph account</span></div>
${body.value}
</main>
</body>
</html>`;
}
