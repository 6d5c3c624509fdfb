// By hand: where a sampled allocation profile (.heapprofile, bench/sandbox-inprocess.mjs with HEAP=1) says
// the bytes were allocated: self bytes by function, largest first, and by the stack of calls up to the
// sandbox's own code (`under`, default: the first frame from a `dist/` file).
//
//   node bench/heapprofile-summary.mjs <file.heapprofile> [lines]
import { readFileSync } from 'node:fs';

const [file, lines = '40'] = process.argv.slice(2);
const { head } = JSON.parse(readFileSync(file, 'utf8'));
const short = (url) => (url ? url.replace(/^file:\/\//, '').replace(/.*\/(dist|node_modules|bench)\//, '$1/') : '(native)');
const name = (frame) => `${frame.functionName || '(anonymous)'} ${short(frame.url)}:${frame.lineNumber + 1}`;
const own = new Map();
const viaSandbox = new Map();
let total = 0;
(function walk(node, stack) {
  const here = [...stack, node.callFrame];
  if (node.selfSize) {
    total += node.selfSize;
    own.set(name(node.callFrame), (own.get(name(node.callFrame)) ?? 0) + node.selfSize);
    // The innermost frame of the sandbox's own code on the stack: what of ours asked for it.
    const ours = [...here].reverse().find((frame) => /\/dist\//.test(frame.url));
    const key = ours ? name(ours) : '(not under the sandbox code)';
    viaSandbox.set(key, (viaSandbox.get(key) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, here);
})(head, []);
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(lines))) console.log(`${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${key}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} MB sampled`);
show('allocated by function', own);
show('allocated under the sandbox function nearest on the stack', viaSandbox);
