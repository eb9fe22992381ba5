// The API's own rule check (validatePost, the dry run of createPost) as the person types: findings per target.
import { useEffect, useState } from 'react';
import { useClient } from 'urql';
import type { Finding } from './model.ts';

const ValidatePost = `
  query ValidatePost($content: PostContentInput!, $targets: [TargetInput!]!) {
    validatePost(content: $content, targets: $targets) { valid targets { index findings { code field message } } }
  }`;

/** Findings for each of `targets`, in their order; asked again 300 ms after the last change. */
export function useRuleCheck(content: { caption: string; mediaIds: string[] }, targets: readonly object[]): Finding[][] {
  const client = useClient();
  const [findings, setFindings] = useState<Finding[][]>([]);
  const request = JSON.stringify({ content, targets });

  // Keyed by the request's text: `content` and `targets` are new objects on every render.
  useEffect(() => {
    const variables = JSON.parse(request) as { targets: readonly object[] };
    if (!variables.targets.length) return setFindings([]);
    let current = true;
    const timer = setTimeout(async () => {
      const result = await client.query(ValidatePost, variables, { requestPolicy: 'network-only' }).toPromise();
      const validation = result.data?.validatePost as { targets: { index: number; findings: Finding[] }[] } | undefined;
      if (validation && current) setFindings(variables.targets.map((_, index) => validation.targets.find((target) => target.index === index)?.findings ?? []));
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [request, client]);

  return findings;
}
