// What an operation costs, by graphql-armor's cost rule: 1 per scalar, 2 per object, ×1.5 per level of nesting,
// and a field taking `first` multiplied by it. The rule reads `first` only where it is written in the document,
// so here a `first` given by a variable is written in, and a connection asked for without one counts the default
// page size it will return.
import {
  Kind,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionNode,
} from 'graphql';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { defaultPageSize } from '../src/pagination.ts';

function withFirst(node: FieldNode, first: number): FieldNode {
  const argument: ArgumentNode = { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'first' }, value: { kind: Kind.INT, value: String(first) } };
  return { ...node, arguments: [...(node.arguments ?? []).filter((arg) => arg.name.value !== 'first'), argument] };
}

/**
 * The document's operations with every fragment written out where it is used. The cost rule counts a fragment as a
 * level of nesting (×1.5 on everything in it): a query built from fragments would cost more than the same query
 * written out. The document has passed validation (no fragment cycles); `seen` guards all the same.
 */
function withFragmentsWrittenOut(document: DocumentNode): DocumentNode {
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const writtenOut = (selections: readonly SelectionNode[], seen: ReadonlySet<string>): SelectionNode[] =>
    selections.flatMap((selection): SelectionNode[] => {
      if (selection.kind === Kind.FIELD) {
        const { selectionSet } = selection;
        return [selectionSet ? { ...selection, selectionSet: { ...selectionSet, selections: writtenOut(selectionSet.selections, seen) } } : selection];
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) return writtenOut(selection.selectionSet.selections, seen);
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) return [];
      return writtenOut(fragment.selectionSet.selections, new Set([...seen, fragment.name.value]));
    });
  return {
    ...document,
    definitions: document.definitions.flatMap((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION
        ? [{ ...definition, selectionSet: { ...definition.selectionSet, selections: writtenOut(definition.selectionSet.selections, new Set()) } }]
        : [],
    ),
  };
}

/** The cost of the costliest operation of the document, with these variables. */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): number {
  const typeInfo = new TypeInfo(schema);
  const pageSizesWritten = visit(
    withFragmentsWrittenOut(document),
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (!typeInfo.getFieldDef()?.args.some((arg) => arg.name === 'first')) return undefined;
        const given = node.arguments?.find((arg) => arg.name.value === 'first');
        if (!given) return withFirst(node, defaultPageSize);
        if (given.value.kind !== Kind.VARIABLE) return undefined;
        const value = variables[given.value.name.value];
        return Number.isSafeInteger(value) ? withFirst(node, value as number) : withFirst(node, defaultPageSize);
      },
    }),
  );
  let cost = 0;
  const measure = costLimitRule({ maxCost: Number.POSITIVE_INFINITY, onAccept: [(_context, { n }: { n: number }) => (cost = Math.max(cost, n))] });
  validate(schema, pageSizesWritten, [measure]);
  return cost;
}
