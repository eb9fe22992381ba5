// Text PostgreSQL cannot store as it was sent. NUL: text columns refuse it. A lone UTF-16 surrogate (JSON's "\ud800"
// parses into one): JSON columns refuse it (a 500 then) and text columns silently store U+FFFD in its place. Each
// transport refuses such input at its edge with these details, so the domain only ever sees text it can store.
import type { ErrorDetail } from '../errors/appError.ts';

/** Read by code point (the `u` flag), a surrogate pair is one character: only a half on its own matches. */
const loneSurrogate = /\p{Surrogate}/u;

function problemOf(text: string): Omit<ErrorDetail, 'field'> | undefined {
  if (text.includes('\u0000')) return { code: 'nulCharacter', messageKey: 'detail.nulCharacter' };
  if (loneSurrogate.test(text)) return { code: 'wellFormed', messageKey: 'detail.wellFormed' };
  return undefined;
}

/**
 * One detail per field of `value` (parsed JSON, GraphQL arguments, tool arguments) holding such text, named as other
 * details are (`targets[0].override.caption`); `whole` names `value` itself. A key that holds such text is named by
 * its object: the detail's field must itself be text a client can read back.
 */
export function unstorableText(value: unknown, whole: string): ErrorDetail[] {
  const details = new Map<string, ErrorDetail>();
  const report = (field: string, problem: Omit<ErrorDetail, 'field'> | undefined) => {
    if (problem && !details.has(field)) details.set(field, { field, ...problem });
  };
  // Iterative: a body nested as deeply as its parser allows does not overflow the stack here.
  const pending: [path: string, item: unknown][] = [['', value]];
  for (let next = 0; next < pending.length; next++) {
    const [path, item] = pending[next]!;
    if (typeof item === 'string') report(path || whole, problemOf(item));
    else if (Array.isArray(item)) {
      for (const [index, child] of item.entries()) pending.push([`${path}[${index}]`, child]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const keyProblem = problemOf(key);
        if (keyProblem) report(path || whole, keyProblem);
        else pending.push([path ? `${path}.${key}` : key, child]);
      }
    }
  }
  return [...details.values()];
}
