/**
 * `take`'s check of {@link ./parallel-checks.mjs} in a check module written in TypeScript, which a
 * worker of the built package loads through tsx: the bench's figure of that start. It reaches the
 * package as a user's module does, by its name (the types are the sources').
 * @module
 */
import type * as Strictcheck from '../src/index.ts';
import type * as Take from '../examples/take.ts';

// By names in variables: the type check does not need the package built.
const pkg: string = 'strictcheck';
const js: string = './parallel-checks.mjs';
const { defineCheck } = (await import(pkg)) as typeof Strictcheck;
const { take, takeSpec } = (await import(js)) as Pick<typeof Take, 'take' | 'takeSpec'>;

export const takeBenchCheck = defineCheck(import.meta.url, 'take', takeSpec, take);
