// A reference page as the docs build writes it: Redoc's own script and the description in one file that
// loads nothing from outside and whose description cannot end the script early. The browser tests
// (reference.browser.test.ts, site.browser.test.ts) see the pages render.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redocScript, referencePage } from '../reference-page.mjs';

const script = redocScript();
const document = {
  openapi: '3.1.0',
  info: { title: 'A <b>title</b> & more', version: '1', description: 'Ends early? </script><script>alert(1)</script> \u2028' },
  paths: {},
};
const page = referencePage({ document, options: { codeSamples: { languages: [{ lang: 'curl' }] } }, script });
const inlineScripts = [...page.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

describe('a reference page', () => {
  it('holds one script, which the description cannot close', () => {
    expect(page.match(/<\/script/gi)).toHaveLength(1);
    expect(inlineScripts).toHaveLength(1);
  });

  it('gives Redoc the description and the options, telling it the description is bundled', () => {
    const [, definition] = /const __redoc_definition = (.*);\n/.exec(page)!;
    const [, options] = /const __redoc_options = (.*);\n/.exec(page)!;
    expect(JSON.parse(definition!)).toEqual(document);
    expect(JSON.parse(options!)).toEqual({ codeSamples: { languages: [{ lang: 'curl' }] }, skipBundle: true, disableTelemetry: true });
    expect(inlineScripts[0]).toContain("hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'))");
    expect(page).toContain('<div id="redoc"></div>');
  });

  it('is titled by the description, escaped', () => {
    expect(page).toContain('<title>A &lt;b&gt;title&lt;/b&gt; &amp; more</title>');
  });

  it("does not fetch Redoc's logo from its CDN: a local image stands in", () => {
    expect(page).not.toMatch(/cdn\.redoc\.ly\/redoc\/logo/);
    expect(page).toContain('data:image/svg+xml;base64,');
  });
});

describe("Redoc's script", () => {
  const dir = mkdtempSync(join(tmpdir(), 'redoc-script-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused when it no longer exports hydrate (a Redoc upgrade changed its entry)', () => {
    const file = join(dir, 'redoc.standalone.js');
    writeFileSync(file, 'export { init };');
    expect(() => redocScript(file)).toThrow(/no longer exports hydrate/);
  });
});
