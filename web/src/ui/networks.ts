// How each network looks: its brand name and mark from Simple Icons, on the brand's colour. LinkedIn asked Simple
// Icons to remove its logo, so it is the monogram "in" on its brand blue; the sandbox (a test network of this
// service) and any network this table does not know yet get a monogram of their first letter.
import {
  siBluesky,
  siDiscord,
  siFacebook,
  siGoogle,
  siInstagram,
  siMastodon,
  siPinterest,
  siReddit,
  siTelegram,
  siThreads,
  siTiktok,
  siX,
  siYoutube,
  type SimpleIcon,
} from 'simple-icons';
import { t } from '../i18n.ts';

export type NetworkLook = { name: string; colour: string } & ({ path: string } | { monogram: string });

const fromIcon = (icon: SimpleIcon): NetworkLook => ({ name: icon.title, colour: `#${icon.hex}`, path: icon.path });

const looks: Record<string, () => NetworkLook> = {
  bluesky: () => fromIcon(siBluesky),
  discord: () => fromIcon(siDiscord),
  facebook: () => fromIcon(siFacebook),
  // Simple Icons has no Business Profile mark: Google's own, under the network's name.
  google_business: () => ({ ...fromIcon(siGoogle), name: 'Google Business Profile' }),
  instagram: () => fromIcon(siInstagram),
  mastodon: () => fromIcon(siMastodon),
  pinterest: () => fromIcon(siPinterest),
  reddit: () => fromIcon(siReddit),
  telegram: () => fromIcon(siTelegram),
  threads: () => fromIcon(siThreads),
  tiktok: () => fromIcon(siTiktok),
  x: () => fromIcon(siX),
  youtube: () => fromIcon(siYoutube),
  linkedin: () => ({ name: 'LinkedIn', colour: '#0A66C2', monogram: 'in' }),
  sandbox: () => ({ name: t('common.sandboxNetwork'), colour: '#4B5563', monogram: 'S' }),
};

/** `provider` as the graph (`BLUESKY`) or REST (`bluesky`) spells it. */
export function networkLook(provider: string): NetworkLook {
  const look = looks[provider.toLowerCase()];
  return look ? look() : { name: provider, colour: '#4B5563', monogram: provider.slice(0, 1).toUpperCase() };
}
