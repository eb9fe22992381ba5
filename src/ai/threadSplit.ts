// A long text cut into the parts of a thread, each within a length limit as the network counts it
// (src/posts/captionLength.ts). Cuts fall between words, so a link, a mention or a hashtag (none has a space in it)
// is never cut; a cut after a sentence (or at a line break) is preferred to one inside a sentence, as long as it
// does not leave a part less than half full. Only a word longer than the limit is cut inside; a link or a
// mention longer than the limit is kept whole in a part of its own (the network refuses that part, rather than
// getting a broken link).

/** A word and the spaces after it, as written. */
interface Word {
  text: string;
  gap: string;
}

const unbreakable = /^(?:https?:\/\/|[@#])/;
const endsSentence = (word: Word) => /[.!?…。！？]["'”’)\]]*$/u.test(word.text) || word.gap.includes('\n');

const wordsOf = (text: string): Word[] => [...text.trim().matchAll(/(\S+)(\s*)/gu)].map(([, word, gap]) => ({ text: word!, gap: gap! }));

const joined = (words: Word[]) =>
  words
    .map((word) => word.text + word.gap)
    .join('')
    .trim();

/** The longest head of `word` (code points) that fits, at least one character. */
function cutWord(word: string, fits: (text: string) => boolean): [string, string] {
  const characters = [...word];
  let size = characters.length - 1;
  while (size > 1 && !fits(characters.slice(0, size).join(''))) size--;
  return [characters.slice(0, size).join(''), characters.slice(size).join('')];
}

/**
 * `text` as parts in order, each of at most `limit` by `measure` (except a link or mention longer than the limit on
 * its own); nothing added, nothing lost: the parts are the text's words with their spacing, cut between words.
 */
export function splitThread(text: string, limit: number, measure: (part: string) => number): string[] {
  const fits = (part: string) => measure(part) <= limit;
  const words = wordsOf(text);
  const parts: string[] = [];
  let current: Word[] = [];
  while (words.length) {
    const word = words.shift()!;
    if (fits(joined([...current, word]))) {
      current.push(word);
      continue;
    }
    if (!current.length) {
      // One word longer than a part: a link or a mention stays whole, any other word is cut.
      if (unbreakable.test(word.text) || [...word.text].length < 2) parts.push(word.text);
      else {
        const [head, rest] = cutWord(word.text, fits);
        parts.push(head);
        words.unshift({ text: rest, gap: word.gap });
      }
      continue;
    }
    // Cut after the last sentence in the part if that keeps it at least half full; else before this word.
    const sentence = current.findLastIndex((candidate, index) => index < current.length - 1 && endsSentence(candidate));
    const cut = sentence >= 0 && measure(joined(current.slice(0, sentence + 1))) * 2 >= limit ? sentence + 1 : current.length;
    parts.push(joined(current.slice(0, cut)));
    words.unshift(...current.slice(cut), word);
    current = [];
  }
  if (current.length) parts.push(joined(current));
  return parts;
}
