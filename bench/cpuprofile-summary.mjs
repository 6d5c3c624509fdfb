// By hand: where a V8 CPU profile (`node --cpu-prof`) spent its time, as self time summed by function and
// by file, largest first, and the total time under each function (inclusive). For the sandbox's hot path
// (issue 14): profile the command line under wrk, then read the top of these lists.
//
//   node bench/cpuprofile-summary.mjs <file.cpuprofile> [lines] [filter of the inclusive list]
import { readFileSync } from 'node:fs';

const [file, lines = '30', filter] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Sample time: the gap to the next sample (the last one gets the mean).
const deltas = profile.timeDeltas;
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const us = deltas[i + 1] ?? (profile.endTime - profile.startTime) / profile.samples.length;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + us);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const shortFile = (url) => (url ? url.replace(/^file:\/\//, '').replace(/.*\/(packages|node_modules)\//, '$1/') : '(native)');
const nameOf = (frame) => `${frame.functionName || '(anonymous)'} ${shortFile(frame.url)}:${frame.lineNumber + 1}`;

const byFunction = new Map();
const byFile = new Map();
const inclusive = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = nodes.get(id);
  byFunction.set(nameOf(callFrame), (byFunction.get(nameOf(callFrame)) ?? 0) + us);
  byFile.set(shortFile(callFrame.url), (byFile.get(shortFile(callFrame.url)) ?? 0) + us);
  // Each function on the stack once, however deep its recursion.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = nameOf(nodes.get(at).callFrame);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}
const show = (title, map, keep = () => true) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].filter(([name]) => keep(name)).sort((a, b) => b[1] - a[1]).slice(0, Number(lines))) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
show('self time by function', byFunction);
show('self time by file', byFile);
show('total time by function', inclusive, (name) => !filter || name.includes(filter));
