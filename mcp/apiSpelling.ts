// Tools speak the API's spelling both ways: arguments take REST's values (`draft`, `feed`, `bluesky`) and results
// answer them too, never the graph's enum names (`DRAFT`, `FEED`, `BLUESKY`). This walks a result along its
// document and turns every enum value back into the value it stands for (the enum's internal value, REST's).
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionSetNode,
  getNamedType,
  isCompositeType,
  isEnumType,
  isObjectType,
  isInterfaceType,
  Kind,
} from 'graphql';

export function inApiSpelling(schema: GraphQLSchema, document: DocumentNode, data: Record<string, unknown>): Record<string, unknown> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const typeNamed = (name: string | undefined, fallback: GraphQLCompositeType) => {
    const type = name ? schema.getType(name) : undefined;
    return type && isCompositeType(type) ? type : fallback;
  };

  const convert = (value: unknown, type: GraphQLCompositeType, selections: SelectionSetNode): unknown => {
    if (Array.isArray(value)) return value.map((item) => convert(item, type, selections));
    if (value === null || typeof value !== 'object') return value;
    const object = { ...(value as Record<string, unknown>) };
    const visit = (parent: GraphQLCompositeType, set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.INLINE_FRAGMENT) visit(typeNamed(selection.typeCondition?.name.value, parent), selection.selectionSet);
        else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (fragment) visit(typeNamed(fragment.typeCondition.name.value, parent), fragment.selectionSet);
        } else {
          const key = selection.alias?.value ?? selection.name.value;
          const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
          if (!field || !(key in object)) continue;
          const named = getNamedType(field.type);
          if (isEnumType(named)) object[key] = mapLeaves(object[key], (name) => named.parseValue(name));
          else if (isCompositeType(named) && selection.selectionSet) object[key] = convert(object[key], named, selection.selectionSet);
        }
      }
    };
    visit(type, selections);
    return object;
  };

  let result = data;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(definition.operation);
    if (root) result = convert(result, root, definition.selectionSet) as Record<string, unknown>;
  }
  return result;
}

function mapLeaves(value: unknown, map: (name: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, map));
  return typeof value === 'string' ? map(value) : value;
}
