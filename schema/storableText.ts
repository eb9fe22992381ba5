// Text the database cannot store as sent (src/text/storableText.ts) is refused before anything is resolved: in the
// document itself (a lone surrogate in a GraphQL literal or comment, which graphql-js would call a syntax error),
// and in every argument value, written inline or passed as a variable, named by its argument path as the NUL check
// names it (`targets[0].override.caption`).
import { GraphQLError, valueFromASTUntyped, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { invalidRequest, type ErrorDetail } from '../src/errors/appError.ts';
import { unstorableText } from '../src/text/storableText.ts';
import { asGraphQLError, markRefusal } from './graphqlErrors.ts';

function argumentDetails(document: DocumentNode, variables: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  visit(document, {
    Argument(node) {
      const name = node.name.value;
      details.push(...unstorableText({ [name]: valueFromASTUntyped(node.value, variables) }, name));
      return false;
    },
  });
  return details;
}

export function storableText(): Plugin {
  return {
    onParse: ({ parseFn, setParseFn }) => {
      setParseFn((source, options) => {
        const details = unstorableText(typeof source === 'string' ? source : source.body, 'query');
        if (!details.length) return parseFn(source, options);
        const refusal = new GraphQLError('the document holds text that cannot be stored');
        markRefusal(refusal, invalidRequest(details));
        throw refusal;
      });
    },
    onExecute: ({ args, setResultAndStopExecution }) => {
      const details = argumentDetails(args.document, (args.variableValues ?? {}) as Record<string, unknown>);
      if (details.length) setResultAndStopExecution({ errors: [asGraphQLError(invalidRequest(details))] });
    },
  };
}
