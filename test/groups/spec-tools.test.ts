import { runGroup } from '../groups.ts';

await runGroup('spec-tools');
