// `npm run schema:print`: writes the graph's SDL to schema/schema.graphql (committed; codegen reads it).
import { writeFileSync } from 'node:fs';
import { printGraphSchema } from './index.ts';

writeFileSync(new URL('./schema.graphql', import.meta.url), printGraphSchema());
