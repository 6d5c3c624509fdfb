// Every Markdown page of the site: where it comes from (relative to the repository root), where it goes
// (relative to docs/dist) and its place in the navigation. A link in any of them to another one becomes a
// link between the pages; a link to a path file of openapi/<api>/paths/ becomes a link into the reference.
export const sections = [
  {
    title: 'Guides',
    pages: [
      { source: 'docs/getting-started.md', title: 'Getting started' },
      { source: 'docs/errors-and-rate-limits.md', title: 'Errors, the rate limit and the throttle' },
      { source: 'docs/callbacks.md', title: 'Callbacks' },
      { source: 'docs/media-and-documents.md', title: 'Media and documents' },
      { source: 'docs/screening-and-monitoring.md', title: 'Screening and monitoring' },
      { source: 'docs/legacy-to-current.md', title: 'Legacy to current' },
      { source: 'docs/sandbox.md', title: 'The sandbox' },
      { source: 'docs/team-sandbox.md', title: 'A sandbox for the whole team' },
      { source: 'docs/changing-the-api.md', title: 'Changing the API' },
    ],
  },
  {
    title: 'Packages',
    pages: [
      { source: 'packages/client/README.md', output: 'packages/client.html', title: '@idv-toolkit/client' },
      { source: 'packages/throttle-redis/README.md', output: 'packages/throttle-redis.html', title: '@idv-toolkit/throttle-redis' },
      { source: 'packages/sandbox/README.md', output: 'packages/sandbox.html', title: '@idv-toolkit/sandbox' },
      { source: 'packages/mock/README.md', output: 'packages/mock.html', title: '@idv-toolkit/mock' },
      { source: 'packages/types/README.md', output: 'packages/types.html', title: '@idv-toolkit/types' },
      { source: 'openapi/README.md', output: 'packages/openapi.html', title: 'openapi/: the descriptions' },
    ],
  },
  {
    title: 'Project',
    pages: [
      { source: 'README.md', output: 'guides/repository.html', title: 'The repository' },
      { source: 'docs/testing.md', title: 'Testing' },
      { source: 'docs/benchmarks.md', title: 'Benchmarks' },
      { source: 'docs/dependencies.md', title: 'Why each dependency' },
    ],
  },
];

/** The API references Redoc builds, by the name of their bundle. */
export const references = [
  { api: 'current', output: 'current.html', title: 'Current interface' },
  { api: 'legacy', output: 'legacy.html', title: 'Legacy interface' },
  { api: 'sandbox', output: 'sandbox.html', title: 'Sandbox control API' },
];

/** Every page with its output path: a guide of docs/ goes to guides/<name>.html. */
export const pages = sections.flatMap((section) =>
  section.pages.map((page) => ({
    ...page,
    section: section.title,
    output: page.output ?? `guides/${page.source.replace(/^docs\//, '').replace(/\.md$/, '')}.html`,
  })),
);
