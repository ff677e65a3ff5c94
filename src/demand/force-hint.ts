/**
 * A hint for the commonest slip of a newcomer: a function that calls `force` on what is not a
 * `Lazy`, because the shape given to strictcheck declares strict (the function receives the
 * value itself) what the function takes to be lazy. The TypeError comes from the function's own
 * code (`n.right.force is not a function`); the hint states what the declarations say of the
 * position it names, and only that: no hint where they say nothing of it.
 * @module
 */
import { types } from 'node:util';
import { Lazy } from '../lazy/lazy.ts';
import { dynamic } from './dynamic.ts';
import { IDENTIFIER } from './key-text.ts';
import { parameterList } from './parameter-names.ts';
import { argumentName } from './observe.ts';
import type { Shape } from './shape-types.ts';
import { shapesInside, someShapeWithin } from './shape-walk.ts';

/** V8's message for a call of `force` on a value without it: the expression before `.force`. */
const NOT_A_FUNCTION = /^(.+?)(?:\?)?\.force is not a function$/;

/**
 * @internal A hint for `thrown`, thrown by a function observed on `inputs` of `shapes` (whose
 * arguments are named `names`, or as its parameters are), or `undefined`. Read only after a throw.
 */
export function forceHint(thrown: unknown, fn: (...args: any[]) => unknown, inputs: readonly unknown[], shapes: readonly (Shape<unknown> | undefined)[], names: readonly string[] | undefined): string | undefined {
  if (types.isProxy(thrown) || !(thrown instanceof TypeError)) return undefined;
  const expr = NOT_A_FUNCTION.exec(thrown.message)?.[1];
  if (expr === undefined) return undefined;
  const named = names ?? parameterNames(fn);
  const lead = `Hint: the function called force on ${expr}, which is not a Lazy.`;
  // A variable: an argument, if it is named so.
  if (IDENTIFIER.test(expr)) {
    const i = named?.indexOf(expr) ?? -1;
    if (i < 0 || i >= inputs.length) return undefined;
    const shape = shapes[i] ?? dynamic;
    if (shape.kind === 'lazy') return undefined;
    if (shape.kind !== 'dynamic') return `${lead} Argument ${expr} is declared ${shape.name}, which is strict: the function receives its value, not a Lazy. If the function takes a Lazy there, declare the argument lazyOf(${shape.name}).`;
    const v = inputs[i];
    if (v instanceof Lazy) return undefined;
    if (Array.isArray(v)) return `${lead} Argument ${expr} is given an array, which is passed as it is (a tuple), not as a lazy list: if the function takes a lazy list, make one with fromArray(array).`;
    return `${lead} Argument ${expr} is given a value that is not a Lazy: if the function takes a Lazy there, give one (now(value) is an evaluated one).`;
  }
  // A field (`n.right`) or a tuple's component (`p[0]`): those of that name or index that the declared shapes make strict.
  const [, name, index] = /(?:[.?]([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*)|\[(\d+)\])$/u.exec(expr) ?? [];
  const key = name ?? index;
  if (key === undefined) return undefined;
  const strict = new Map<string, string>(); // description → the field's shape's name
  const holders = new Set<string>(); // the arguments whose shapes hold one
  const kinds = new Set<string>(); // what they are: field, component
  shapes.forEach((from, i) => {
    if (from === undefined) return;
    someShapeWithin(from, (s) => {
      if (s.kind !== 'data' || s.collection) return false;
      for (const alt of s.alternatives()) {
        const { style } = alt.ctor;
        const at = alt.ctor.keys.findIndex((k) => String(k) === key);
        const field = at < 0 ? undefined : alt.shapes[at]!;
        if (field === undefined || field.kind === 'lazy' || field.kind === 'dynamic') continue;
        const kind = style === 'tuple' ? 'component' : 'field';
        strict.set(`${kind} ${key} of ${style === 'data' ? `${s.name}'s ${alt.ctor.name}` : s.name} is declared ${field.name}`, field.name);
        holders.add(argumentName(named, i));
        kinds.add(kind);
      }
      return false;
    }, () => true, shapesInside);
  });
  if (strict.size === 0) return undefined;
  const kind = kinds.size === 1 ? [...kinds][0]! : 'field or component';
  const fix = strict.size === 1 ? `declare the ${kind} lazyOf(${[...strict.values()][0]})` : `wrap the shape of the ${kind} it takes in lazyOf`;
  return `${lead} In the shapes of ${[...holders].join(', ')}, ${[...strict.keys()].join('; ')}: a strict ${kind} holds its value, not a Lazy. If the function takes a Lazy there, ${fix}.`;
}

/**
 * The names of `fn`'s parameters, read from its source, if they are all plain identifiers (no
 * default value, destructuring or rest): for messages, which name arguments as the function does.
 */
function parameterNames(fn: (...args: any[]) => unknown): readonly string[] | undefined {
  const params = parameterList(fn);
  return params?.every((p) => IDENTIFIER.test(p)) ? params : undefined;
}
