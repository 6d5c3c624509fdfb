// Server-rendered HTML with every interpolated value escaped unless it is already markup (`Markup`).
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const render = (value: unknown): string => (value instanceof Markup ? value.text : Array.isArray(value) ? value.map(render).join('') : value === undefined || value === null || value === false ? '' : escapeHtml(value));

/** `html\`<p>${text}</p>\``: the values are escaped, arrays joined, `Markup` kept, null/undefined/false dropped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Markup(out);
}

export const time = (iso: string | null | undefined): Markup => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time>` : html`—`);
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);
