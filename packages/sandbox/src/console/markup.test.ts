// The console's markup helpers (console/html.ts, layout.ts): what a value becomes in a page (escaped,
// joined, dropped), how a time reads, and the frame, navigation and action buttons every page shares.
import { describe, expect, it } from 'vitest';
import type { Company } from '../companies.js';
import { escapeHtml, html, Markup, pretty, time } from './html.js';
import { action, companyCell, companyHead, layout, sections } from './layout.js';
import type { Viewer } from './view.js';

const company = { name: 'Company A' } as Company;
const viewer: Viewer = { admin: false, name: 'Company A', companies: [company] };
const operator: Viewer = { admin: true, name: 'the operator', companies: [company] };

describe('a value in a page', () => {
  it('is escaped: ampersand, angle brackets and both quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(0)).toBe('0');
  });

  it('keeps markup, joins lists and drops null, undefined and false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(inner).toBeInstanceOf(Markup);
    expect(inner.text).toBe('<b>&#60;i&#62;</b>');
    expect(`${inner}`).toBe('<b>&#60;i&#62;</b>');
    expect(html`<p>${[inner, 'x&', [1, 2]]}</p>`.text).toBe('<p><b>&#60;i&#62;</b>x&#38;12</p>');
    expect(html`[${null}|${undefined}|${false}|${0}|${true}|${''}]`.text).toBe('[|||0|true|]');
    expect(html`plain`.text).toBe('plain');
  });

  it('reads a time to the second, in UTC, and no time as a dash', () => {
    expect(time('2026-01-02T03:04:05.678Z').text).toBe('<time datetime="2026-01-02T03:04:05.678Z">2026-01-02 03:04:05Z</time>');
    expect(time('2026-01-02T03:04:05Z').text).toBe('<time datetime="2026-01-02T03:04:05Z">2026-01-02 03:04:05Z</time>');
    for (const none of [null, undefined, '']) expect(time(none).text).toBe('—');
  });

  it('shows JSON indented by two spaces', () => {
    expect(pretty({ a: [1], b: null })).toBe('{\n  "a": [\n    1\n  ],\n  "b": null\n}');
  });
});

describe('the frame of a page', () => {
  it('names the page and the viewer, lists every section and marks the current one', () => {
    const page = layout('Sessions', html`<p>body</p>`, viewer, '/console/sessions/sess_1');
    expect(page.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8">')).toBe(true);
    expect(page).toContain('<title>Sessions · Sandbox console</title>');
    expect(page).toContain('<main><h1>Sessions</h1><p>body</p></main>');
    expect(page).toContain('<span>Signed in as Company A</span>');
    expect(page).toContain('<form method="post" action="/console/sign-out"><button class="secondary" type="submit">Sign out</button></form>');
    for (const [href, label] of sections) expect(page).toContain(`<a href="${href}"${href === '/console/sessions' ? ' aria-current="page"' : ''}>${label}</a>`);
    expect(sections.map(([href]) => href)).toEqual(['/console/requests', '/console/sessions', '/console/callbacks', '/console/rate-limit', '/console/blacklist', '/console/users', '/console/monitoring']);
    expect(page.match(/aria-current/g)).toHaveLength(1);
    expect(page).toContain('<link rel="stylesheet" href="/console/assets/console.css">');
    expect(page).toContain('<script src="/console/assets/console.js"></script></body></html>');
  });

  it('has no navigation for nobody signed in, and shows a notice and an error escaped', () => {
    const page = layout('Sign in', html``, undefined, '/console/', '<notice>', 'error & more');
    expect(page).toContain('<header><strong>Sandbox console</strong></header>');
    expect(page).not.toContain('<nav');
    expect(page).toContain('<p class="notice" role="status">&#60;notice&#62;</p><p class="error" role="alert">error &#38; more</p>');
    expect(layout('x', html``, undefined, '/', null, '')).not.toMatch(/class="(notice|error)"/);
  });

  it('has a company column for the operator only', () => {
    expect(companyHead(operator).text).toBe('<th scope="col">Company</th>');
    expect(companyCell(operator, 'A & B').text).toBe('<td>A &#38; B</td>');
    expect(companyHead(viewer).text).toBe('');
    expect(companyCell(viewer, 'A').text).toBe('');
  });
});

describe('an action button', () => {
  it('posts its company, the page to come back to and its fields, with its style and confirmation', () => {
    expect(action('expire', 3, '/console/sessions/s', { sessionId: 's"1' }, 'Expire', 'secondary', 'Sure?').text).toBe(
      '<form class="inline" method="post" action="/console/act/expire" data-confirm="Sure?"><input type="hidden" name="c" value="3"><input type="hidden" name="back" value="/console/sessions/s"><input type="hidden" name="sessionId" value="s&#34;1"><button type="submit" class="secondary">Expire</button></form>',
    );
    expect(action('unblock', -1, '/console/rate-limit', {}, 'Unblock').text).toBe(
      '<form class="inline" method="post" action="/console/act/unblock"><input type="hidden" name="c" value="-1"><input type="hidden" name="back" value="/console/rate-limit"><button type="submit">Unblock</button></form>',
    );
  });
});
