// What the AI features need of a model provider. Two implement it: `openai` (any OpenAI-compatible API) and
// `sandbox` (offline, deterministic). Providers throw AppError AI_BUSY, AI_REFUSED or AI_UNAVAILABLE on failure,
// and give up after AI_TIMEOUT_MS (AI_UNAVAILABLE).
export const imageSizes = ['1024x1024', '1024x1536', '1536x1024'] as const;
export type ImageSize = (typeof imageSizes)[number];

export const captionActions = ['rewrite', 'translate', 'hashtags'] as const;
export type CaptionAction = (typeof captionActions)[number];

export interface CaptionTask {
  action: CaptionAction;
  /** For `translate`, hashtags, mentions and links are replaced by placeholders the answer must keep. */
  caption: string;
  /** How many suggestions (`rewrite`, `translate`) or hashtags (`hashtags`). */
  count: number;
  tone?: string;
  /** BCP 47 tag, for `translate`. */
  targetLanguage?: string;
  /** The target network's caption limit (characters), when a network is named. */
  maxLength?: number;
  /** A rewrite to be posted as a thread: the longest part (characters); the text is cut at sentences where it can. */
  partLength?: number;
  /** Placeholders (`translate`) that every suggestion must contain unchanged. */
  placeholders?: string[];
}

export interface AltTextTask {
  /** A reduced JPEG copy of the image, never the original file. */
  jpeg: Buffer;
  /** BCP 47 tag of the language the description is written in. */
  language: string;
  maxLength: number;
}

export interface ImageTask {
  prompt: string;
  size: ImageSize;
}

export interface AiProvider {
  readonly name: 'openai' | 'sandbox';
  suggestCaptions(task: CaptionTask): Promise<string[]>;
  describeImage(task: AltTextTask): Promise<string>;
  /** The image's bytes (PNG, JPEG or WebP). */
  generateImage(task: ImageTask): Promise<Buffer>;
}
