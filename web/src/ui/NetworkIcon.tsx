// A network's mark on its brand colour, named for assistive technology by the network's name (title='' when the
// name is already written beside it: the icon is then hidden from assistive technology).
import { networkLook } from './networks.ts';

export function NetworkIcon({ provider, size = 20, title }: { provider: string; size?: number; title?: string }) {
  const look = networkLook(provider);
  const name = title ?? look.name;
  const labelled = name !== '';
  return (
    <svg
      className="network-icon"
      role={labelled ? 'img' : undefined}
      aria-label={labelled ? name : undefined}
      aria-hidden={labelled ? undefined : true}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      focusable="false"
    >
      <rect width="24" height="24" rx="5" fill={look.colour} />
      {'path' in look ? (
        <path d={look.path} fill="#fff" transform="translate(4.5 4.5) scale(0.625)" />
      ) : (
        <text x="12" y="16.5" textAnchor="middle" fontSize="13" fontWeight="700" fontFamily="system-ui, sans-serif" fill="#fff">
          {look.monogram}
        </text>
      )}
    </svg>
  );
}
