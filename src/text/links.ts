// Links in a text as every part of the service finds them: the caption's length (src/posts/captionLength.ts), the
// rule check of links per post, and adapters comparing texts (X's look-up of an earlier attempt).
export const linkPattern = /\bhttps?:\/\/\S+/gi;
