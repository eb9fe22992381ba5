// Settings that name a file of the media library (YouTube's `thumbnailMediaId`, Pinterest's `coverMediaId`): a
// setting names media when its name ends in `MediaId`. The worker hands the adapter those files beside the post's
// own (`PublishRequest.settingsMedia`, ready to read like them, only ready files of the post's workspace), so that no adapter reaches
// into the library or its storage; a target whose setting names a file that is missing or not ready is refused
// before it is attempted, as one whose own media are.
import { ProviderError, type PublishMedia, type PublishRequest } from '../adapter.ts';

const namesMedia = (setting: string) => setting.endsWith('MediaId');

/** The media ids a target's settings name, by setting. */
export function mediaSettings(settings: Record<string, unknown>): [setting: string, mediaId: string][] {
  return Object.entries(settings).flatMap(([name, value]) => (namesMedia(name) && typeof value === 'string' ? [[name, value] as [string, string]] : []));
}

/** The file a setting names, if it names one; it must be of `kind` (the network's own refusal otherwise). */
export function mediaOfSetting(request: PublishRequest, setting: string, kind: PublishMedia['kind']): PublishMedia | undefined {
  if (request.settings[setting] === undefined) return undefined;
  const media = request.settingsMedia?.[setting];
  if (!media) throw new ProviderError('PROVIDER_REJECTED', `The file ${setting} names is not a ready file of the media library.`, false);
  if (media.kind !== kind) throw new ProviderError('PROVIDER_REJECTED', `${setting} must name a file of kind ${kind}, not ${media.kind}.`, false);
  return media;
}
