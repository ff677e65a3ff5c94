import { benchCheck } from './check.ts';
console.log(JSON.stringify(await benchCheck()));
