// Reading a model's answer. Servers with structured output answer the JSON asked for; others wrap it in prose or
// code fences, or answer plain text: the JSON object is looked for in the text, and failing that the text itself
// is taken (one suggestion per line, or the whole text as the description).
import type { z } from 'zod';
import { aiUnavailable } from './failures.ts';

export interface AnswerShape<T> {
  schema: z.ZodType<T>;
  /** The shape's list of strings, filled from the lines of a plain-text answer. */
  listKey?: string;
  /** The shape's one string, filled from a plain-text answer. */
  textKey?: string;
}

function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

function fromPlainText<T>(text: string, shape: AnswerShape<T>): unknown {
  const plain = text.replace(/```\w*/g, '').trim();
  if (!plain) return undefined;
  if (shape.listKey) {
    const lines = plain
      .split('\n')
      .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
      .filter(Boolean);
    return { [shape.listKey]: lines };
  }
  if (shape.textKey) return { [shape.textKey]: plain };
  return undefined;
}

export function parseAnswer<T>(text: string, shape: AnswerShape<T>): T {
  for (const candidate of [jsonIn(text), fromPlainText(text, shape)]) {
    const parsed = shape.schema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  throw aiUnavailable('the answer could not be read');
}
