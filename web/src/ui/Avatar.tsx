// An account's or person's picture, or their initials when there is none or it does not load; with `provider`, the
// network's icon as a badge at the corner. Named by the name (and network) for assistive technology. The size is a
// custom property set through the CSSOM, which the dashboard's Content-Security-Policy (no inline styles) allows.
import { useState, type CSSProperties } from 'react';
import { t } from '../i18n.ts';
import { NetworkIcon } from './NetworkIcon.tsx';
import { networkLook } from './networks.ts';

function initialsOf(name: string): string {
  const words = name
    .replace(/^@/, '')
    .replace(/@.*$/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
}

export function Avatar({ src, name, provider, size = 40 }: { src: string | null; name: string; provider?: string; size?: number }) {
  const [failed, setFailed] = useState<string | null>(null);
  const label = provider ? t('common.avatarOn', { name, network: networkLook(provider).name }) : name;
  const showImage = src !== null && failed !== src;
  return (
    <span className="avatar" role="img" aria-label={label} style={{ '--avatar-size': `${size}px` } as CSSProperties}>
      {showImage ? (
        <img src={src} alt="" width={size} height={size} onError={() => setFailed(src)} />
      ) : (
        <span className="avatar-initials" aria-hidden="true">
          {initialsOf(name) || '?'}
        </span>
      )}
      {provider && (
        <span className="avatar-badge">
          <NetworkIcon provider={provider} size={Math.max(12, Math.round(size * 0.42))} title="" />
        </span>
      )}
    </span>
  );
}
