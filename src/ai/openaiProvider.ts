// Any OpenAI-compatible API (OpenAI, Azure OpenAI, Ollama, vLLM, LocalAI, llama.cpp's server, OpenRouter) through
// the official `openai` client pointed at AI_BASE_URL. Answers are asked for as JSON (response_format json_schema,
// "structured output"); servers that ignore it are still understood (tolerant parsing in answers.ts).
// Prompts and generated text are logged at debug level only; the API key never.
import OpenAI from 'openai';
import { request } from 'undici';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { z } from 'zod';
import { AppError } from '../errors/appError.ts';
import type { AiSettings } from '../config.ts';
import type { Logger } from '../logger.ts';
import { answerTooLargeIn, readAtMost } from '../outbound/answerLimit.ts';
import type { AiProvider, AltTextTask, CaptionTask, ImageTask } from './provider.ts';
import { parseAnswer, type AnswerShape } from './answers.ts';
import { aiBusy, aiRefused, aiUnavailable } from './failures.ts';

type Shape<T> = AnswerShape<T> & { responseFormat: ResponseFormatJSONSchema };

/** What an answer must look like: the JSON Schema sent as `response_format` and the check of the answer, from one definition. */
function answerShape<T>(name: string, schema: z.ZodType<T>, fill: Pick<AnswerShape<T>, 'listKey' | 'textKey'>): Shape<T> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema);
  return { schema, ...fill, responseFormat: { type: 'json_schema', json_schema: { name, schema: jsonSchema, strict: true } } };
}

const suggestionsAnswer = answerShape('suggestions', z.strictObject({ suggestions: z.array(z.string()) }), { listKey: 'suggestions' });
const altTextAnswer = answerShape('alt_text', z.strictObject({ altText: z.string() }), { textKey: 'altText' });

function captionPrompt(task: CaptionTask): string {
  const limit = task.maxLength
    ? ` Each must be at most ${task.maxLength} characters long.`
    : task.partLength
      ? ` Each will be posted as a thread of parts of at most ${task.partLength} characters, cut at sentence ends: write short sentences and keep the whole text's length.`
      : '';
  switch (task.action) {
    case 'rewrite':
      return `Rewrite this social media caption. Give ${task.count} different suggestions${task.tone ? ` in a ${task.tone} tone` : ''}, in the caption's own language, keeping its hashtags, mentions and links.${limit}`;
    case 'translate':
      return `Translate this social media caption into the language with the BCP 47 tag "${task.targetLanguage}". Give ${task.count} suggestion(s). Copy every placeholder of the form ⟦n⟧ unchanged, exactly once each.${limit}`;
    case 'hashtags':
      return `Suggest ${task.count} hashtags for this social media caption, each starting with #, without spaces, most relevant first.`;
  }
}

export class OpenAiProvider implements AiProvider {
  readonly name = 'openai';
  readonly #client: OpenAI;
  readonly #settings: AiSettings;
  readonly #logger: Logger;

  constructor(settings: AiSettings, logger: Logger) {
    this.#settings = settings;
    this.#logger = logger;
    // No retries by the client: a busy or failing provider is reported at once (429 AI_BUSY, 503 AI_UNAVAILABLE).
    // Servers without keys (Ollama, llama.cpp) accept any bearer. The client's `timeout` bounds each call whole,
    // reading the answer's body included (a body that stalls halfway is 503 AI_UNAVAILABLE: test/http/ai.test.ts).
    this.#client = new OpenAI({
      baseURL: settings.baseUrl,
      apiKey: settings.apiKey ?? 'none',
      timeout: settings.timeoutMs,
      maxRetries: 0,
      fetch: cappedFetch,
    });
  }

  async suggestCaptions(task: CaptionTask): Promise<string[]> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: `${captionPrompt(task)} Answer with JSON: {"suggestions": [string]}.` },
      { role: 'user', content: task.caption },
    ];
    const answer = await this.#chat(this.#settings.textModel, messages, suggestionsAnswer);
    return answer.suggestions;
  }

  async describeImage(task: AltTextTask): Promise<string> {
    const image: ChatCompletionContentPart = { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${task.jpeg.toString('base64')}` } };
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'system',
        content: `Write alt text for this image for people who cannot see it: what it shows, concisely, at most ${task.maxLength} characters, in the language with the BCP 47 tag "${task.language}". Answer with JSON: {"altText": string}.`,
      },
      { role: 'user', content: [image] },
    ];
    const answer = await this.#chat(this.#settings.visionModel, messages, altTextAnswer);
    return answer.altText;
  }

  async generateImage(task: ImageTask): Promise<Buffer> {
    this.#logger.debug({ model: this.#settings.imageModel, prompt: task.prompt, size: task.size }, 'ai image request');
    const model = this.#settings.imageModel;
    // gpt-image models always answer base64 and refuse the parameter; the others (DALL·E, LocalAI, ...) need it.
    const format = model.startsWith('gpt-image') ? {} : { response_format: 'b64_json' as const };
    const response = await this.#call(() => this.#client.images.generate({ model, prompt: task.prompt, size: task.size, n: 1, ...format }));
    const data = response.data?.[0]?.b64_json;
    if (!data) throw aiUnavailable('the answer had no image');
    return Buffer.from(data, 'base64');
  }

  async #chat<T>(model: string, messages: ChatCompletionMessageParam[], shape: Shape<T>): Promise<T> {
    this.#logger.debug({ model, messages: messages.map((message) => (typeof message.content === 'string' ? message.content : '[image]')) }, 'ai request');
    const completion = await this.#call(() =>
      this.#client.chat.completions.create({ model, messages, response_format: shape.responseFormat }).catch((error: unknown) => {
        // A server that does not know structured output says so about the parameter: ask again without it.
        if (!(error instanceof OpenAI.BadRequestError) || !/response_format/i.test(`${error.param ?? ''} ${error.message}`)) throw error;
        return this.#client.chat.completions.create({ model, messages });
      }),
    );
    const choice = completion.choices[0];
    if (!choice) throw aiUnavailable('the answer had no choice');
    if (choice.message.refusal) throw aiRefused(choice.message.refusal);
    if (choice.finish_reason === 'content_filter') throw aiRefused('content filter');
    this.#logger.debug({ model, content: choice.message.content }, 'ai answer');
    return parseAnswer(choice.message.content ?? '', shape);
  }

  /** The provider's failures as our codes: its 429 is AI_BUSY, a content policy refusal AI_REFUSED, the rest AI_UNAVAILABLE. */
  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (answerTooLargeIn(error)) throw aiUnavailable('answer too large');
      if (error instanceof OpenAI.RateLimitError) throw aiBusy(retryAfterSeconds(error.headers));
      if (error instanceof OpenAI.APIConnectionTimeoutError) throw aiUnavailable('timeout');
      if (error instanceof OpenAI.APIUserAbortError) throw aiUnavailable('timeout');
      if (error instanceof OpenAI.APIConnectionError) throw aiUnavailable('connection failed');
      if (error instanceof OpenAI.APIError) {
        if (error.code === 'content_policy_violation' || error.code === 'content_filter') throw aiRefused(error.code);
        this.#logger.warn({ status: error.status, code: error.code, type: error.type }, 'ai provider refused the request');
        throw aiUnavailable(`status ${error.status ?? 'unknown'}`);
      }
      throw error;
    }
  }
}

function retryAfterSeconds(headers: Headers | undefined): number {
  const value = Number(headers?.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : 1;
}

/**
 * The most of one answer read: a JSON answer holding at most one base64 image (a 1536×1024 PNG is a few MB); a
 * longer one fails the call as the provider's failure.
 */
const aiAnswerBytesAtMost = 32 * 1024 * 1024;

/**
 * The client's `fetch`, on undici's `request` (the operator's AI_BASE_URL, not a host a person or network names),
 * with the answer read whole (JSON, or one base64 image) up to `aiAnswerBytesAtMost`: past it the connection is
 * dropped and the call fails as the provider's.
 */
const cappedFetch: typeof fetch = async (input, init = {}) => {
  const answer = await request(input instanceof Request ? input.url : input, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers as Record<string, string>,
    body: init.body as string | Uint8Array | null,
    signal: init.signal ?? undefined,
  });
  const body = await readAtMost(answer.body, aiAnswerBytesAtMost, answer.headers['content-length']);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const bodiless = answer.statusCode === 204 || answer.statusCode === 205 || answer.statusCode === 304;
  return new Response(bodiless ? null : body, { status: answer.statusCode, headers });
};
