import { normalize, fromArray, List, entangle } from '/work/main/src/index.ts';
const n = 100000;
const bs = Array.from({length: 30}, () => fromArray(Array.from({length: n}, (_, i) => i)));
const t = performance.now();
for (const b of bs) { const [c] = entangle(b); const r = List.reverse(c); const [rc] = entangle(r); normalize(rc); }
console.log((performance.now() - t) / 30);
