// JSON whose integers may lie beyond 2^53 (TikTok's post ids are int64 numbers, not strings): `JSON.parse` would
// round them to the nearest double, so such an integer is kept as its own digits, a string, read from the source
// text (the reviver's `context.source`, ES2025 JSON.parse source text access). Other numbers stay numbers.
type SourceReviver = (key: string, value: unknown, context: { source?: string }) => unknown;

const keepLargeIntegers: SourceReviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source) ? context.source : value;

export function parseKeepingLargeIntegers(text: string): unknown {
  return JSON.parse(text, keepLargeIntegers as (key: string, value: unknown) => unknown);
}
