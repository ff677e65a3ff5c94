import { benchObserve } from './observe.ts';
await benchObserve({ log: console.log });
