// The site's search: search-index.json (built with the site: each guide section and each operation)
// is fetched once, on the first key press, and matched word by word; a title match ranks first.
(() => {
  const root = document.currentScript.dataset.root;
  const input = document.querySelector('.search input');
  const list = document.querySelector('.search .results');
  let index;
  const load = () => (index ??= fetch(`${root}/search-index.json`).then((response) => response.json()));

  const score = (entry, words) => {
    const title = entry.title.toLowerCase();
    const all = `${title} ${entry.text.toLowerCase()}`;
    if (!words.every((word) => all.includes(word))) return 0;
    return words.filter((word) => title.includes(word)).length * 10 + (entry.url.includes('#') ? 0 : 5) + 1;
  };

  input.addEventListener('input', async () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    const entries = await load();
    const hits = words.length ? entries.map((entry) => [score(entry, words), entry]).filter(([s]) => s > 0).sort((a, b) => b[0] - a[0]).slice(0, 12) : [];
    list.replaceChildren(
      ...hits.map(([, entry]) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = `${root}/${entry.url}`;
        link.textContent = entry.title;
        const kind = document.createElement('span');
        kind.textContent = entry.kind;
        item.append(link, kind);
        return item;
      }),
    );
    if (words.length && hits.length === 0) list.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'Nothing found' }));
    list.hidden = words.length === 0;
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') list.querySelector('a')?.click();
    if (event.key === 'Escape') list.hidden = true;
  });
})();
