// What the media library accepts at all: a file some network takes. Each post is then checked against the
// rules of the networks it goes to (src/posts/validation.ts).
import { providerRules } from '../providers/catalog.ts';
import type { FileRules, MediaKind } from '../providers/rules.ts';

function filesOf(kind: MediaKind): FileRules[] {
  return providerRules.flatMap((rules) => {
    const files = kind === 'image' ? rules.image : kind === 'gif' ? rules.gif : rules.video;
    return files ? [files] : [];
  });
}

export function acceptedFormats(kind: MediaKind): Set<string> {
  return new Set(filesOf(kind).flatMap((files) => files.formats));
}

export function largestAccepted(kind: MediaKind): number {
  return Math.max(...filesOf(kind).map((files) => files.maxBytes));
}

export function longestVideoMs(): number {
  return Math.max(...providerRules.flatMap((rules) => (rules.video ? [rules.video.maxDurationMs] : [])));
}

export function longestAltText(): number {
  return Math.max(...providerRules.flatMap((rules) => (rules.altText ? [rules.altText.maxLength] : [])));
}
