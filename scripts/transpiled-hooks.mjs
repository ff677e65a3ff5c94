/**
 * Module hooks that load a TypeScript module of the repository from its JavaScript copy (see
 * scripts/transpile.ts) at the module's own URL. JavaScript, as they load before any TypeScript can.
 * @module
 */
import { readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url).href;
const copies = new URL('../.cache/transpiled/', import.meta.url).href;

/** The copy of `url` if it is a TypeScript module of the repository's, else undefined. */
function copyOf(url) {
  const path = url.split(/[?#]/)[0];
  if (!path.startsWith(root) || path.startsWith(copies) || !path.endsWith('.ts') || path.includes('/node_modules/')) return undefined;
  return new URL(`${copies}${path.slice(root.length, -'.ts'.length)}.js`);
}

export async function load(url, context, next) {
  const copy = copyOf(url);
  if (copy === undefined) return next(url, context);
  let source;
  try {
    source = readFileSync(copy);
  } catch (err) {
    throw new Error(`${url} has no transpiled copy (${err.code}): run node --import tsx scripts/transpile.ts, as npm test does first`);
  }
  return { format: 'module', source, shortCircuit: true };
}
