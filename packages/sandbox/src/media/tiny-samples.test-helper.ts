// The smallest samples the tests upload, built on first use inside a test, not when png.ts and jpeg.ts (or
// a test file) load: a mutant that makes an encoder throw then fails the tests that use the sample, where
// thrown at load it left no test completed and Stryker counted it alive (docs/testing.md, media).
import { solidJpeg } from './jpeg.js';
import { solidPng } from './png.js';

let png: Uint8Array | undefined;
let jpeg: Uint8Array | undefined;
/** A 1x1 grey PNG. */
export const tinyPng = (): Uint8Array => (png ??= solidPng(1, 1));
/** An 8x8 grey JPEG. */
export const tinyJpeg = (): Uint8Array => (jpeg ??= solidJpeg(8, 8));
