// Resumable uploads as Google documents them for YouTube
// (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol): the bytes go to a session URL
// the network gave (the adapter keeps it as a step), in chunks with `Content-Range: bytes A-B/TOTAL`; the network
// answers 308 with `Range: bytes=0-N` for each chunk but the last, and 200/201 with the created resource after it.
// A resumed upload first asks where the session stands (`Content-Range: bytes */TOTAL`, no body) and goes on from
// the byte after the last one the network holds, so nothing it already has is sent again. Memory is one chunk.
import type { PublishMedia } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { NetworkHttp, NetworkResponse, ResponseHeaders } from './../http.ts';
import { readSegment } from './upload.ts';

/** Chunks must be multiples of 256 KiB (but the last); 8 MiB is Google's suggested size. */
export const resumableChunkBytes = 8 * 1024 * 1024;

export interface ResumableUpload {
  http: NetworkHttp;
  sessionUrl: string;
  media: PublishMedia;
  accessToken?: string;
  signal?: AbortSignal;
  chunkBytes?: number;
}

/** Breaks in the middle of an upload survived by asking the session where it stands and going on from there. */
const breaksSurvived = 3;

/** Sends what the session lacks of the file and answers the network's final answer (the created resource). */
export async function uploadResumable<T>({ http, sessionUrl, media, accessToken, signal, chunkBytes = resumableChunkBytes }: ResumableUpload): Promise<T> {
  const total = media.size;
  // Never re-sent as it is: after a break the session is asked where it stands (it may hold part of the chunk).
  const call = (headers: Record<string, string>, bytes?: Buffer) =>
    http.send<T>({
      method: 'PUT',
      url: sessionUrl,
      accessToken,
      headers,
      ...(bytes ? { body: { bytes, contentType: media.mimeType } } : {}),
      signal,
      accept: [308],
      idempotent: !bytes,
    });
  const status = () => call({ 'content-range': `bytes */${total}` });
  // Where the session stands: a fresh one holds nothing, an interrupted one what it received.
  let answer: NetworkResponse<T> = await status();
  let breaks = 0;
  let sentFrom = -1;
  while (answer.status === 308) {
    const next = nextByte(answer.headers);
    // A session that keeps nothing of what it is sent would be sent the same chunk for ever.
    if (next <= sentFrom && ++breaks > breaksSurvived)
      throw new ProviderError('PROVIDER_UNAVAILABLE', 'The upload session keeps none of the bytes sent.', true);
    sentFrom = next;
    const end = Math.min(total, next + chunkBytes);
    try {
      answer = await call({ 'content-range': `bytes ${next}-${end - 1}/${total}` }, await readSegment(media, { start: next, end }));
    } catch (error) {
      if (!(error instanceof ProviderError && error.transient && !error.retryAfterMs) || ++breaks > breaksSurvived) throw error;
      answer = await status();
    }
  }
  return answer.body;
}

/** The byte after the last one the session holds (`Range: bytes=0-N`), 0 without a Range header. */
function nextByte(headers: ResponseHeaders): number {
  const range = headers.range;
  const match = /bytes=0-(\d+)/.exec(Array.isArray(range) ? (range[0] ?? '') : (range ?? ''));
  return match ? Number(match[1]) + 1 : 0;
}
