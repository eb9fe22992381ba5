// POST /media/{id}/alt-text/suggestion: a reduced JPEG copy of a ready image (at most 1024 px on its longer side;
// never the original file) goes to the vision model; the answer, at most 1,000 characters in the language asked,
// is returned and not saved.
import sharp from 'sharp';
import type { Actor } from '../access/actor.ts';
import { AppError, invalidRequest, notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { storageKeys } from '../media/storage.ts';
import type { Ai } from './ai.ts';
import { languageTag } from './captions.ts';
import { aiUnavailable } from './failures.ts';
import { shorten } from './shorten.ts';

const altTextLimits = { longestSide: 1024, maxLength: 1000 } as const;

async function readyImage(ai: Ai, actor: Actor, mediaId: string) {
  const media = isUuid(mediaId) ? await ai.db.prisma.media.findFirst({ where: { id: mediaId, workspaceId: actor.workspaceId } }) : null;
  if (!media) throw notFound('mediaFile');
  if (media.status !== 'ready') throw new AppError('CONFLICT', 'aiMediaNotReady', { status: media.status });
  if (media.type !== 'image' && media.type !== 'gif') throw new AppError('VALIDATION_FAILED', 'aiMediaNotImage', { kind: media.type ?? 'file' });
  return media;
}

/** `language`: a BCP 47 tag; absent, the caller's language (Accept-Language). */
export async function suggestAltText(ai: Ai, actor: Actor, mediaId: string, input: { language?: string | null }, callerLanguage: string) {
  const provider = ai.begin(actor, 'suggestAltText');
  const language = input.language ? languageTag(input.language) : callerLanguage;
  if (!language) throw invalidRequest([{ field: 'language', code: 'languageTag', messageKey: 'detail.languageTag' }]);
  const media = await readyImage(ai, actor, mediaId);
  const { longestSide, maxLength } = altTextLimits;
  const jpeg = await ai.storage.withLocalFile(storageKeys.original(media.id), (path) =>
    sharp(path)
      .rotate()
      .resize({ width: longestSide, height: longestSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
  const { result, creditsUsed, creditsRemaining } = await ai.charged(actor, provider, 'altText', async (model) => {
    const description = (await model.describeImage({ jpeg, language, maxLength })).trim();
    if (!description) throw aiUnavailable('the answer was empty');
    return shorten(description, maxLength);
  });
  return { altText: result, creditsUsed, creditsRemaining };
}
