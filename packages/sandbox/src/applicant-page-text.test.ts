// What the applicant page (widget.ts) shows and how it is served: the session's status in words, its steps
// by their English title (else the first title given, else the step's key), a message, the form that
// finishes the session (gone once it expired), everything from the session escaped as HTML; and the headers
// that keep the page out of frames, caches and referrers. server-widget.test.ts and server-behaviour.test.ts
// reach the page over HTTP; this pins each text and header of it.
import { describe, expect, it } from 'vitest';
import type { Session } from './state.js';
import { widgetHeaders, widgetPage } from './widget.js';

const session = (changes: Partial<Session> = {}): Session => ({
  id: 'sess_page_0001',
  kind: 'kyc',
  steps: [
    { key: 'document', type: 'DOCUMENT', title: { ka: 'დოკუმენტი', en: 'Your document' } },
    { key: 'selfie', type: 'SELFIE', title: { ka: 'სელფი', de: 'Selfie (de)' } },
    { key: 'address-check', type: 'ADDRESS' },
  ] as unknown as Session['steps'],
  general: {},
  flags: {},
  createdAt: 0,
  expiresAt: 1,
  status: 'created',
  activities: [],
  storedBytes: 0,
  ...changes,
});

describe('the applicant page of a session', () => {
  it.each([
    ['created', 'Waiting for the applicant'],
    ['approved', 'Approved'],
    ['rejected', 'Rejected'],
    ['manual-check', 'Waiting for a manual check'],
    ['additional-information-requested', 'Additional information requested'],
  ] as const)('says the status %s as "%s"', (status, words) => {
    expect(widgetPage(session({ status }), 'tok', false)).toContain(`<strong data-testid="status">${words}</strong>`);
  });

  it('names the session and each step: its English title, else its first title, else its key; with its type', () => {
    const page = widgetPage(session(), 'sess_page_0001', false);
    expect(page).toContain('<p>Session <code>sess_page_0001</code>:');
    expect(page).toContain('<ol><li>Your document <small>(DOCUMENT)</small></li><li>სელფი <small>(SELFIE)</small></li><li>address-check <small>(ADDRESS)</small></li></ol>');
  });

  it('offers the form that finishes it, posted back to its own link with the form token, while it has not expired', () => {
    const page = widgetPage(session(), 'sess page&1', false, undefined, 'form-token-1');
    expect(page).toContain('<form method="post" action="/widget/?session_token=sess%20page%261">');
    expect(page).toContain('<input type="hidden" name="form_token" value="form-token-1">');
    for (const [value, label] of [
      ['approved', 'Approve'],
      ['rejected', 'Reject'],
      ['manual-check', 'Send to manual check'],
    ]) {
      expect(page).toContain(`<button name="result" value="${value}">${label}</button>`);
    }
    expect(page).not.toContain('This session has expired.');
    // No message: nothing between the status and the steps.
    expect(page).toContain('</strong></p>\n      \n      <h2>Steps</h2>');
  });

  it('says it expired, and offers no form, once it has', () => {
    const page = widgetPage(session(), 'sess_page_0001', true, undefined, 'form-token-1');
    expect(page).toContain('<p role="alert">This session has expired.</p>');
    expect(page).not.toContain('<form');
    expect(page).not.toContain('form-token-1');
  });

  it('shows a message about the last action', () => {
    expect(widgetPage(session(), 'tok', false, 'This form is out of date: reload the page.')).toContain('<p role="status">This form is out of date: reload the page.</p>');
  });

  it('escapes what the session and the message hold', () => {
    const hostile = `<script>alert("x")</script>&'`;
    const escaped = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;';
    const page = widgetPage(
      session({ id: hostile, steps: [{ key: 'k', type: hostile, title: { en: hostile } }] as unknown as Session['steps'] }),
      'tok',
      false,
      hostile,
      hostile,
    );
    expect(page).not.toContain('<script>');
    expect(page).toContain(`<code>${escaped}</code>`);
    expect(page).toContain(`<li>${escaped} <small>(${escaped})</small></li>`);
    expect(page).toContain(`<p role="status">${escaped}</p>`);
    expect(page).toContain(`name="form_token" value="${escaped}"`);
  });
});

describe('the applicant page without a session', () => {
  it('says no session has the link, or the message given, escaped', () => {
    const page = widgetPage(undefined, 'sess_gone', false);
    expect(page).toContain('<p role="alert">No session has this link. It may have been deleted.</p>');
    expect(page).not.toContain('<form');
    expect(widgetPage(undefined, 'x', false, 'Gone <now>')).toContain('<p role="alert">Gone &#60;now&#62;</p>');
  });

  it('is a whole HTML document in English with a title', () => {
    const page = widgetPage(undefined, 'x', false);
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">/);
    expect(page).toContain('<title>Identity verification (sandbox)</title>');
    expect(page).toContain('<body><h1>Identity verification <small>(sandbox)</small></h1><p role="alert">');
    expect(page.endsWith('</body>\n</html>')).toBe(true);
  });
});

it('is served never framed, never cached, never sniffed, and with no referrer (its URL holds the token)', () => {
  expect(widgetHeaders).toEqual({
    'content-type': 'text/html; charset=utf-8',
    'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
});
