// Looking inside a file: the real type from its bytes (file-type), images through sharp (libvips), videos
// through ffprobe and ffmpeg (binaries shipped by npm packages). Each either describes the file or throws
// MediaRejection with the reason a person can act on.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { MediaKind } from '../providers/rules.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ffmpegPath: string = require('@ffmpeg-installer/ffmpeg').path;
const ffprobePath: string = require('@ffprobe-installer/ffprobe').path;

export class MediaRejection extends Error {
  constructor(
    readonly code: 'unknownType' | 'unsupportedType' | 'corrupt' | 'tooLarge' | 'tooLong' | 'empty',
    message: string,
  ) {
    super(message);
  }
}

export interface FileDescription {
  kind: MediaKind;
  mimeType: string;
  format: string;
  width: number;
  height: number;
  durationMs: number | null;
  codecs: string[];
}

const videoFormats: Record<string, string> = { mp4: 'mp4', mov: 'mov', webm: 'webm', m4v: 'mp4', qt: 'mov' };

/** What detectType needs of a file: its first bytes (file-type reads 4,100 for most formats; some look further). */
export const typeSampleBytes = 64 * 1024;

/** The real type of a file from its first `typeSampleBytes`. */
export async function detectType(sample: Uint8Array): Promise<{ ext: string; mime: string }> {
  const type = await fileTypeFromBuffer(sample);
  if (!type) throw new MediaRejection('unknownType', 'The content is not a known image or video format, whatever its name says.');
  return type;
}

export async function describeImage(path: string, mime: string, ext: string, thumbnail: string): Promise<FileDescription> {
  try {
    const image = sharp(path, { failOn: 'truncated', animated: ext === 'gif' });
    const metadata = await image.metadata();
    // Decoding the whole image (to make the thumbnail) is what finds a truncated or damaged file.
    await sharp(path, { failOn: 'truncated' })
      .rotate()
      .resize({ width: 320, height: 320, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toFile(thumbnail);
    const height = metadata.pageHeight ?? metadata.height;
    return { kind: ext === 'gif' ? 'gif' : 'image', mimeType: mime, format: metadata.format, width: metadata.width, height, durationMs: null, codecs: [] };
  } catch (error) {
    if (error instanceof MediaRejection) throw error;
    throw new MediaRejection('corrupt', `The image cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
}

interface ProbeOutput {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    side_data_list?: { rotation?: number }[];
    tags?: { rotate?: string };
  }[];
  format?: { duration?: string };
}

export async function describeVideo(path: string, mime: string, ext: string, poster: string): Promise<FileDescription> {
  let probe: ProbeOutput;
  try {
    const { stdout } = await run(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], { maxBuffer: 8 * 1024 * 1024 });
    probe = JSON.parse(stdout) as ProbeOutput;
  } catch (error) {
    throw new MediaRejection(
      'corrupt',
      `The video cannot be read: ${String((error as { stderr?: string }).stderr ?? error)
        .trim()
        .split('\n')
        .at(-1)}`,
    );
  }
  const video = probe.streams?.find((stream) => stream.codec_type === 'video');
  const durationMs = Math.round(Number(probe.format?.duration ?? 0) * 1000);
  if (!video?.width || !video.height || !durationMs) throw new MediaRejection('corrupt', 'The video has no readable picture or duration.');
  const rotation = Math.abs(Number(video.side_data_list?.find((side) => side.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0));
  const [width, height] = rotation === 90 || rotation === 270 ? [video.height, video.width] : [video.width, video.height];
  try {
    const at = Math.min(1, durationMs / 2000).toFixed(3);
    await run(ffmpegPath, [
      '-v',
      'error',
      '-y',
      '-ss',
      at,
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      'scale=320:320:force_original_aspect_ratio=decrease',
      '-f',
      'webp',
      poster,
    ]);
  } catch (error) {
    throw new MediaRejection(
      'corrupt',
      `No frame of the video can be decoded: ${String((error as { stderr?: string }).stderr ?? error)
        .trim()
        .split('\n')
        .at(-1)}`,
    );
  }
  const codecs = [...new Set((probe.streams ?? []).flatMap((stream) => (stream.codec_name ? [stream.codec_name] : [])))];
  return { kind: 'video', mimeType: mime, format: videoFormats[ext] ?? ext, width, height, durationMs, codecs };
}

export const mediaTools = { ffmpegPath, ffprobePath };
