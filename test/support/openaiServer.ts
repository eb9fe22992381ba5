// A local stand-in for the OpenAI API, serving the two endpoints the service calls as OpenAI's API reference documents
// them (https://platform.openai.com/docs/api-reference/chat/create, .../images/create, .../introduction#errors;
// the shapes also match the official client's types in node_modules/openai/resources):
// - POST /v1/chat/completions: messages with text and image_url parts (data URLs); `response_format` json_schema;
//   answers a `chat.completion` object whose choice carries `message.content`, `message.refusal` and
//   `finish_reason` ("stop", or "content_filter" when the filter withheld the content).
// - POST /v1/images/generations: answers `{created, data: [{b64_json}]}` (a real PNG of the size asked).
// - Errors: `{error: {message, type, param, code}}` with the HTTP status; 429 carries `retry-after`.
// Behaviour is switchable per test (`mode`; `stalledBody` and `endlessBody` are broken servers, not OpenAI's), `delayMs` slows every answer, `hold()` keeps answers back until
// released, every request is recorded (path, body, authorization) for assertions, and `mostInFlight` is the most
// requests it was answering at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { pourWithoutEnd } from './endless.ts';

/** `plainText`: answers prose, ignoring response_format; `noStructuredOutput`: refuses response_format with 400, as older servers do. */
export type StandInMode =
  | 'ok'
  | 'plainText'
  | 'noStructuredOutput'
  | 'rateLimited'
  | 'serverError'
  | 'contentFilter'
  | 'refusal'
  | 'contentPolicy'
  | 'unauthorized'
  | 'stalledBody'
  | 'endlessBody';

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: any;
}

/** What a chat completion answers in `ok` mode: the JSON the response_format asks for, from the user message. */
export type ChatReply = (request: { schemaName: string | undefined; userText: string; system: string }) => unknown;

const defaultReply: ChatReply = ({ schemaName, userText }) =>
  schemaName === 'alt_text'
    ? { altText: 'A small test picture in one colour.' }
    : { suggestions: [`First: ${userText}`, `Second: ${userText}`, `Third: ${userText}`] };

export interface OpenAiStandIn {
  /** The base URL to give as AI_BASE_URL (ends in /v1). */
  baseUrl: string;
  mode: StandInMode;
  delayMs: number;
  reply: ChatReply;
  requests: RecordedRequest[];
  mostInFlight: number;
  /** Bytes written in `endlessBody` mode, once the reader hung up. */
  endlessBytesSent: number;
  /** Answers wait until the returned function is called. */
  hold(): () => void;
  /** Resolves once `count` requests have arrived in all. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

const errors: Record<
  Exclude<StandInMode, 'ok' | 'plainText' | 'noStructuredOutput' | 'contentFilter' | 'refusal' | 'stalledBody' | 'endlessBody'>,
  { status: number; type: string; code: string | null; message: string }
> = {
  rateLimited: { status: 429, type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again in 7s.' },
  serverError: { status: 500, type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
  contentPolicy: {
    status: 400,
    type: 'invalid_request_error',
    code: 'content_policy_violation',
    message: 'Your request was rejected as a result of our safety system.',
  },
  unauthorized: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
};

async function readJson(request: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('\n');
  return '';
}

export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  let gate: Promise<void> | null = null;
  const arrivals: { count: number; resolve: () => void }[] = [];
  const standIn = {
    mode: 'ok' as StandInMode,
    delayMs: 0,
    reply: defaultReply,
    requests: [] as RecordedRequest[],
    mostInFlight: 0,
    endlessBytesSent: 0,
  };
  let inFlight = 0;

  async function chatCompletion(body: any) {
    const messages: { role: string; content: unknown }[] = body.messages ?? [];
    const userText = textOf(messages.findLast((message) => message.role === 'user')?.content);
    const system = textOf(messages.find((message) => message.role === 'system')?.content);
    const schemaName: string | undefined = body.response_format?.json_schema?.name;
    const choice = (message: { content: string | null; refusal: string | null }, finishReason: string) => ({
      id: `chatcmpl-${Date.now()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finishReason }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
    if (standIn.mode === 'contentFilter') return choice({ content: null, refusal: null }, 'content_filter');
    if (standIn.mode === 'refusal') return choice({ content: null, refusal: "I'm sorry, I can't help with that request." }, 'stop');
    const answer = standIn.reply({ schemaName, userText, system });
    if (standIn.mode === 'plainText' || standIn.mode === 'noStructuredOutput') {
      // A server without structured output: prose around the answer, or one suggestion per line.
      const suggestions = (answer as { suggestions?: string[] }).suggestions;
      const content = suggestions
        ? suggestions.map((text, index) => `${index + 1}. ${text}`).join('\n')
        : `Here it is:\n${(answer as { altText: string }).altText}`;
      return choice({ content, refusal: null }, 'stop');
    }
    return choice({ content: JSON.stringify(answer), refusal: null }, 'stop');
  }

  async function imageGeneration(body: any) {
    const [width, height] = String(body.size ?? '1024x1024')
      .split('x')
      .map(Number) as [number, number];
    const png = await sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    return { created: Math.floor(Date.now() / 1000), data: [{ b64_json: png.toString('base64') }] };
  }

  const server: Server = createServer(async (request, response) => {
    standIn.mostInFlight = Math.max(standIn.mostInFlight, ++inFlight);
    response.once('close', () => inFlight--);
    const body = await readJson(request);
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    standIn.requests.push({ path, authorization: request.headers.authorization, body });
    for (const arrival of arrivals.filter((waiting) => standIn.requests.length >= waiting.count)) arrival.resolve();
    if (gate) await gate;
    if (standIn.delayMs) await sleep(standIn.delayMs);
    if (response.destroyed) return;
    const failure = standIn.mode in errors ? errors[standIn.mode as keyof typeof errors] : null;
    if (standIn.mode === 'noStructuredOutput' && body.response_format) {
      const message = 'Unrecognized request argument supplied: response_format';
      return send(response, 400, { error: { message, type: 'invalid_request_error', param: 'response_format', code: null } });
    }
    if (failure) {
      const headers: Record<string, string> = failure.status === 429 ? { 'retry-after': '7' } : {};
      return send(response, failure.status, { error: { message: failure.message, type: failure.type, param: null, code: failure.code } }, headers);
    }
    // A server that answers 200 and then stops sending halfway through the body (a stalled proxy or model server).
    if (standIn.mode === 'stalledBody')
      return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"id":"chatcmpl-stalled","choices":[');
    // A server that answers 200 and then sends without end (a broken or hostile model server).
    if (standIn.mode === 'endlessBody') {
      const pouring = pourWithoutEnd(response, '{"id":"chatcmpl-endless","padding":"');
      return void pouring.closed.then(() => (standIn.endlessBytesSent = pouring.sent()));
    }
    if (request.method === 'POST' && path === '/v1/chat/completions') return send(response, 200, await chatCompletion(body));
    if (request.method === 'POST' && path === '/v1/images/generations') return send(response, 200, await imageGeneration(body));
    send(response, 404, {
      error: { message: `Unknown request URL: ${request.method} ${path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(standIn, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    received(count: number) {
      if (standIn.requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => arrivals.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
