/**
 * The layers of src read one way: a folder imports only folders at its level or below,
 * lazy → demand → iter / engine → spec → parallel → the files of src itself and src/api.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
/** Each layer's folders, lowest first; the files directly in src are the top layer, with src/api. */
const LAYERS: readonly (readonly string[])[] = [['lazy'], ['demand'], ['iter', 'engine'], ['spec'], ['parallel'], ['.', 'api']];

function layerOf(file: string): number {
  const rel = relative(SRC, file);
  const folder = rel.includes('/') ? rel.split('/')[0]! : '.';
  const layer = LAYERS.findIndex((l) => l.includes(folder));
  assert.ok(layer >= 0, `src/${rel} is in no layer: add its folder to LAYERS`);
  return layer;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The relative modules a file imports (statically, or with import()), outside comments. */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']+)'/gm)].map((m) => resolve(dirname(file), m[1]!));
}

test('no folder of src imports a folder above it', () => {
  const upward: string[] = [];
  for (const file of sources(SRC)) {
    for (const target of importsOf(file)) {
      if (layerOf(target) > layerOf(file)) upward.push(`src/${relative(SRC, file)} imports src/${relative(SRC, target)}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('the sequential runners never see the workers option: checks.ts chooses the mode', () => {
  for (const file of ['spec/random.ts', 'spec/exhaustive.ts']) {
    const code = readFileSync(join(SRC, file), 'utf8');
    assert.doesNotMatch(code, /options\.workers|\.workers !== undefined/, `src/${file} reads the workers option`);
  }
});
