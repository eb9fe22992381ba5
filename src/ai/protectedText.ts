// Translations keep hashtags, mentions and links exactly: they are replaced by numbered placeholders before the
// text goes to the model, and an answer is used only when every placeholder comes back exactly once.
const protectedPattern = /https?:\/\/\S+|(?<![\p{L}\p{N}_])[#@][\p{L}\p{N}_]+(?:@[\p{L}\p{N}.-]+\.[\p{L}]+)?/gu;

export interface ProtectedText {
  text: string;
  placeholders: string[];
  /** The answer with the original tokens back, or null when it lost, repeated or invented a placeholder. */
  restore(answer: string): string | null;
}

export function protect(text: string): ProtectedText {
  const tokens: string[] = [];
  const masked = text.replace(protectedPattern, (token) => `⟦${tokens.push(token)}⟧`);
  const placeholders = tokens.map((_, index) => `⟦${index + 1}⟧`);
  return {
    text: masked,
    placeholders,
    restore(answer) {
      const found: string[] = answer.match(/⟦\d+⟧/g) ?? [];
      if (found.length !== placeholders.length || placeholders.some((placeholder) => !found.includes(placeholder))) return null;
      return answer.replace(/⟦(\d+)⟧/g, (_, index: string) => tokens[Number(index) - 1]!);
    },
  };
}
