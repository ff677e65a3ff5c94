import { runGroup } from '../groups.ts';

await runGroup('parallel-verdicts');
