import { html, type Markup } from './html.js';
import type { Viewer } from './view.js';

export const sections: [path: string, label: string][] = [
  ['/console/requests', 'Requests'],
  ['/console/sessions', 'Sessions'],
  ['/console/callbacks', 'Callbacks'],
  ['/console/rate-limit', 'Rate limit'],
  ['/console/blacklist', 'Blacklist'],
  ['/console/users', 'Users and groups'],
  ['/console/monitoring', 'Monitoring and sources'],
];

export function layout(title: string, content: Markup, viewer: Viewer | undefined, path: string, notice?: string | null, error?: string | null): string {
  const nav = viewer
    ? html`<header><strong>Sandbox console</strong><nav aria-label="Console sections"><ul>${sections.map(([href, label]) => html`<li><a href="${href}"${path.startsWith(href) ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>
<span>Signed in as ${viewer.name}</span><form method="post" action="/console/sign-out"><button class="secondary" type="submit">Sign out</button></form></header>`
    : html`<header><strong>Sandbox console</strong></header>`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="same-origin">
<title>${title} · Sandbox console</title><link rel="stylesheet" href="/console/assets/console.css"></head>
<body>${nav}<main><h1>${title}</h1>${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${error ? html`<p class="error" role="alert">${error}</p>` : ''}${content}</main>
<script src="/console/assets/console.js"></script></body></html>`.text;
}

export const companyCell = (viewer: Viewer, name: string): Markup => (viewer.admin ? html`<td>${name}</td>` : html``);
export const companyHead = (viewer: Viewer): Markup => (viewer.admin ? html`<th scope="col">Company</th>` : html``);
/** A POST form to one console action; `company` is the form reference of the company it acts for. */
export function action(name: string, company: number, back: string, fields: Record<string, string>, label: string, style = '', confirm?: string): Markup {
  return html`<form class="inline" method="post" action="/console/act/${name}"${confirm ? html` data-confirm="${confirm}"` : ''}><input type="hidden" name="c" value="${company}"><input type="hidden" name="back" value="${back}">${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit"${style ? html` class="${style}"` : ''}>${label}</button></form>`;
}
