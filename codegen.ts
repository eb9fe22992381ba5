// `npm run codegen`: TypeScript types of the domain graph (schema/schema.graphql, printed by `npm run schema:print`)
// for the dashboard and other TypeScript consumers of /graphql.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'schema/generated/graphql.ts': {
      plugins: ['typescript'],
      config: { scalars: { DateTime: 'string' }, enumsAsTypes: true, useTypeImports: true },
    },
  },
};

export default config;
