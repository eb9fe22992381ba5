// Real media files made in the test: images by sharp (libvips), videos by ffmpeg, and broken ones.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { mediaTools } from '../../src/media/probe.ts';

const run = promisify(execFile);

export async function image(format: 'png' | 'jpeg' | 'webp' | 'gif', width: number, height: number): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } });
  return base.toFormat(format).toBuffer();
}

/** An H.264 MP4 of `seconds` seconds, made by ffmpeg from its test pattern. */
export async function video(width: number, height: number, seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sps-video-'));
  const path = join(dir, 'clip.mp4');
  await run(mediaTools.ffmpegPath, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}:rate=15:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    path,
  ]);
  return readFile(path);
}
