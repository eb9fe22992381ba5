// The offline provider (AI_PROVIDER=sandbox): deterministic answers built from the request itself, for trying the
// API and for tests. It never calls out and never fails.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { AiProvider, AltTextTask, CaptionTask, ImageTask } from './provider.ts';

function sandboxCaptions(task: CaptionTask): string[] {
  const numbered = (label: string) => Array.from({ length: task.count }, (_, index) => `[sandbox ${label} ${index + 1}] ${task.caption}`);
  switch (task.action) {
    case 'rewrite':
      return numbered(task.tone ?? 'rewrite');
    case 'translate':
      return numbered(task.targetLanguage ?? 'translation');
    case 'hashtags': {
      const words = task.caption.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
      return [...words, 'sandbox'].map((word) => `#${word}`);
    }
  }
}

export class SandboxProvider implements AiProvider {
  readonly name = 'sandbox';

  async suggestCaptions(task: CaptionTask): Promise<string[]> {
    return sandboxCaptions(task);
  }

  async describeImage(task: AltTextTask): Promise<string> {
    const { width, height } = await sharp(task.jpeg).metadata();
    return `[sandbox ${task.language}] An image of ${width}×${height} pixels.`;
  }

  async generateImage(task: ImageTask): Promise<Buffer> {
    const [width, height] = task.size.split('x').map(Number) as [number, number];
    const digest = createHash('sha256').update(task.prompt).digest();
    return sharp({ create: { width, height, channels: 3, background: { r: digest[0]!, g: digest[1]!, b: digest[2]! } } })
      .png()
      .toBuffer();
  }
}
