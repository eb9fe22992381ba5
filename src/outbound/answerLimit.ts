// Reading an answer from outside (a network, a host a network or a person named, the AI provider) with a byte cap:
// streamed and counted as it arrives, the connection dropped the moment the cap is passed (or at once when the
// answer declares a longer length), so a host answering without end costs at most the cap in memory.

export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';
  constructor(readonly limit: number) {
    super(`The answer is larger than ${limit.toLocaleString('en')} bytes.`);
  }
}

/** AnswerTooLarge where a client that read the answer wrapped it (oauth4webapi, the atproto client), else undefined. */
export function answerTooLargeIn(error: unknown): AnswerTooLarge | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof AnswerTooLarge) return cause;
  }
  return undefined;
}

const declaredLength = (value: string | string[] | null | undefined) => Number(Array.isArray(value) ? value[0] : (value ?? undefined));

/**
 * The whole of a streamed answer (undici `request`'s body) if it holds at most `limit` bytes; past it, the stream
 * is destroyed (ending the connection) and AnswerTooLarge thrown.
 */
export async function readAtMost(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
  contentLength?: string | string[],
): Promise<Buffer<ArrayBuffer>> {
  if (declaredLength(contentLength) > limit) {
    body.destroy();
    throw new AnswerTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (the throw) destroys the stream.
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new AnswerTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The answer of a `fetch` with its body capped at `limit` bytes: reading it (`json()`, `text()`, a stream) fails
 * with AnswerTooLarge past the cap, and the connection is dropped then; an answer declaring a longer length is
 * refused before any of it is read.
 */
export async function capped(response: Response, limit: number): Promise<Response> {
  if (!response.body) return response;
  if (declaredLength(response.headers.get('content-length')) > limit) {
    await response.body.cancel();
    throw new AnswerTooLarge(limit);
  }
  let size = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new AnswerTooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // Clients compare where the answer came from (after redirects) with what they asked for.
  Object.defineProperties(wrapped, { url: { value: response.url }, redirected: { value: response.redirected } });
  return wrapped;
}
