// `npm run schema:print` (and `npm run graph:generate`, on install and before typechecking): writes the graph's SDL
// to schema/schema.graphql, which codegen reads. Both are made from the code, never committed.
import { writeFileSync } from 'node:fs';
import { printGraphSchema } from './index.ts';

writeFileSync(new URL('./schema.graphql', import.meta.url), printGraphSchema());
