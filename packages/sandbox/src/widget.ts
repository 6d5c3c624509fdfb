// The applicant page ({widget_url}/?session_token=<id>): shows the session's steps and lets a tester
// finish it as approved, rejected or for manual check, as an applicant and the service would.
import type { Session } from './state.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const statusText: Record<Session['status'], string> = {
  created: 'Waiting for the applicant',
  approved: 'Approved',
  rejected: 'Rejected',
  'manual-check': 'Waiting for a manual check',
  'additional-information-requested': 'Additional information requested',
};

function stepTitle(step: Session['steps'][number]): string {
  const title = step.title as Record<string, string> | undefined;
  return title?.en ?? Object.values(title ?? {})[0] ?? step.key;
}

/** Headers of every applicant page: never framed (clickjacking), no referrer (the URL holds the token). */
export const widgetHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function widgetPage(session: Session | undefined, token: string, expired: boolean, message?: string, formToken = ''): string {
  const body = !session
    ? `<p role="alert">${escapeHtml(message ?? 'No session has this link. It may have been deleted.')}</p>`
    : `<p>Session <code>${escapeHtml(session.id)}</code>: <strong data-testid="status">${escapeHtml(statusText[session.status])}</strong></p>
      ${message ? `<p role="status">${escapeHtml(message)}</p>` : ''}
      <h2>Steps</h2>
      <ol>${session.steps.map((step) => `<li>${escapeHtml(stepTitle(step))} <small>(${escapeHtml(step.type)})</small></li>`).join('')}</ol>
      ${
        expired
          ? `<p role="alert">This session has expired.</p>`
          : `<h2>Finish as a tester</h2>
      <form method="post" action="/widget/?session_token=${encodeURIComponent(token)}">
        <input type="hidden" name="form_token" value="${escapeHtml(formToken)}">
        <button name="result" value="approved">Approve</button>
        <button name="result" value="rejected">Reject</button>
        <button name="result" value="manual-check">Send to manual check</button>
      </form>`
      }`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Identity verification (sandbox)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}button{font:inherit;margin:0 .5rem .5rem 0;padding:.4rem .9rem}</style>
</head>
<body><h1>Identity verification <small>(sandbox)</small></h1>${body}</body>
</html>`;
}
