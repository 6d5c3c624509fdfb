// Renders the Markdown pages of the site (guides, package READMEs) with markdown-it into one template,
// rewrites their links (between pages, into the reference, anything else of the repository), and collects
// the search index. Nothing here loads from outside: the pages use only site.css and search.js.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import { pages as allPages, references, sections } from './pages.mjs';

/** GitHub's heading ids, so that the READMEs' own `#limits`-style links work on the site as on GitHub. */
export const slugify = (text) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const escapeHtml = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * Where a link of the repository goes on the site: another page, an operation of the reference (a link to
 * its path file), or nowhere (a file the site does not publish: the link is kept as its text).
 */
function linkResolver(root, pages, operationsByPathFile) {
  const byRepoPath = new Map(pages.map((page) => [page.source, page.output]));
  return (href, sourceFile, outputFile) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return { href }; // absolute: kept as written
    const [target, fragment] = href.split('#');
    if (!target) return { href };
    const repoPath = posix.normalize(posix.join(posix.dirname(sourceFile), target));
    const fromDir = posix.dirname(outputFile);
    const page = byRepoPath.get(repoPath);
    if (page) return { href: posix.relative(fromDir, page) + (fragment ? `#${fragment}` : '') };
    const operation = operationsByPathFile.get(repoPath);
    if (operation) return { href: posix.relative(fromDir, `${operation.api}.html`) + (operation.operationId ? `#operation/${operation.operationId}` : '') };
    return { unpublished: repoPath, exists: existsSync(join(root, repoPath)) };
  };
}

/** The site's pages: [{ output, html }] and the search index of their headings. */
export function renderSite({ root, template, operationsByPathFile, operations }) {
  const pages = allPages.filter((page) => existsSync(join(root, page.source)));
  const resolveLink = linkResolver(root, pages, operationsByPathFile);
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  md.use(anchor, { slugify, tabIndex: false });

  // Links are rewritten while rendering: the environment says which page is being rendered.
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  const defaultLinkClose = md.renderer.rules.link_close ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const resolved = resolveLink(token.attrGet('href'), env.source, env.output);
    if (resolved.unpublished) {
      // A file the site does not publish (source, configuration): its name stays, as text.
      env.unpublished.push(resolved);
      token.meta = { unpublished: true };
      return `<span class="repo-path" title="${escapeHtml(resolved.unpublished)} in the repository">`;
    }
    token.attrSet('href', resolved.href);
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  md.renderer.rules.link_close = (tokens, idx, options, env, self) => {
    // The matching open token is the nearest earlier link_open at the same nesting level.
    let open = idx - 1;
    while (open >= 0 && tokens[open].type !== 'link_open') open--;
    if (tokens[open]?.meta?.unpublished) return '</span>';
    return defaultLinkClose(tokens, idx, options, env, self);
  };

  const index = [];
  const unpublished = [];
  const rendered = pages.map((page) => {
    const env = { source: page.source, output: page.output, unpublished: [] };
    const tokens = md.parse(readFileSync(join(root, page.source), 'utf8'), env);
    const body = md.renderer.render(tokens, md.options, env);
    unpublished.push(...env.unpublished.map((link) => ({ ...link, page: page.source })));
    // One search entry per page and per section heading, with the words under it.
    let entry = { title: page.title, url: page.output, kind: page.section, text: '' };
    index.push(entry);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.type === 'heading_open' && (token.tag === 'h2' || token.tag === 'h3')) {
        const title = tokens[i + 1].content;
        entry = { title: `${page.title}: ${title}`, url: `${page.output}#${token.attrGet('id')}`, kind: page.section, text: '' };
        index.push(entry);
      } else if (token.type === 'inline' && entry.text.length < 600) {
        entry.text += ` ${token.content}`;
      }
    }
    return { output: page.output, html: fill(template, { page, pages, body }) };
  });
  for (const entry of index) entry.text = entry.text.replace(/\s+/g, ' ').trim().slice(0, 600);
  for (const operation of operations) {
    index.push({ title: operation.summary, url: `${operation.api}.html#operation/${operation.operationId}`, kind: references.find((r) => r.api === operation.api).title, text: `${operation.operationId} ${operation.path}` });
  }
  return { rendered, index, unpublished, pages };
}

/** The page in the template: title, navigation, body, and the path back to the root for links. */
export function fill(template, { page, pages, body }) {
  const up = posix.relative(posix.dirname(page.output), '.') || '.';
  const link = (target) => posix.relative(posix.dirname(page.output), target) || '.';
  const nav = [
    `<a class="home" href="${link('index.html')}">Home</a>`,
    ...sections.map((section) => {
      const items = section.pages
        .map((entry) => pages.find((p) => p.source === entry.source))
        .filter(Boolean)
        .map((p) => `<li><a href="${link(p.output)}"${p.output === page.output ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`);
      return `<h2>${section.title}</h2><ul>${items.join('')}</ul>`;
    }),
    `<h2>Reference</h2><ul>${references.map((r) => `<li><a href="${link(r.output)}">${r.title}</a></li>`).join('')}</ul>`,
  ].join('\n');
  return template
    .replaceAll('{{title}}', escapeHtml(page.title))
    .replaceAll('{{root}}', up)
    .replace('{{nav}}', () => nav)
    .replace('{{body}}', () => body);
}

