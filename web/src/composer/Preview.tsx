// A preview per chosen target, laid out as that network lays out a post: the account's avatar, name and handle, the
// caption (cut where the network's limit ends, links shortened where the network shortens them, links, mentions and
// hashtags highlighted), the media in a grid (first on networks that lead with the picture), and the length as the
// network counts it against its limit; a thread's parts below it as a chain, each counted against the same limit, or a
// note where the network refuses threads.
import type { CSSProperties } from 'react';
import { t } from '../i18n.ts';
import type { MediaItem } from '../media/MediaPicker.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { captionOf, type PlacementRules, type TargetDraft, type ThreadPartDraft } from './model.ts';
import { captionLimit } from '../../../src/posts/captionLength.ts';
import { previewCaption, type CaptionPreview } from '../../../src/posts/captionPreview.ts';

/** Networks whose posts lead with the picture or video, the caption below it. */
const mediaFirst = new Set(['INSTAGRAM', 'PINTEREST', 'TIKTOK', 'YOUTUBE']);

function Caption({ preview, maxLength }: { preview: CaptionPreview; maxLength: number }) {
  return (
    <p className="preview-caption">
      {preview.shown.map((piece) =>
        piece.kind === 'link' ? (
          <a key={piece.key} href={piece.href} title={piece.href} target="_blank" rel="noreferrer">
            {piece.text}
          </a>
        ) : piece.kind === 'text' ? (
          <span key={piece.key}>{piece.text}</span>
        ) : (
          <span key={piece.key} className={`preview-${piece.kind}`}>
            {piece.text}
          </span>
        ),
      )}
      {preview.overflow && (
        <>
          <span className="cut" aria-hidden="true">
            ✂
          </span>
          <span className="visually-hidden">{t('composer.previewCut', { count: preview.length - maxLength })}</span>
          <del className="overflow">{preview.overflow}</del>
        </>
      )}
    </p>
  );
}

function Length({ length, maxLength }: { length: number; maxLength: number }) {
  return <footer className={length > maxLength ? 'preview-length over' : 'preview-length'}>{t('composer.previewLength', { length, max: maxLength })}</footer>;
}

/** The parts after the first post, each as the network would show its reply, numbered as the thread's `count` parts. */
function ThreadChain({ parts, placement, network }: { parts: readonly ThreadPartDraft[]; placement: PlacementRules; network: string }) {
  if (!parts.length) return null;
  if (!placement.thread) return <p className="preview-thread-refused">{t('composer.threadRefused', { network, placement: placement.name })}</p>;
  const count = parts.length + 1;
  return (
    <ol className="preview-thread">
      {parts.map((part, index) => {
        const preview = previewCaption(part.caption, placement.caption);
        return (
          <li key={part.key} aria-label={t('composer.previewPart', { number: index + 2, count })}>
            <Caption preview={preview} maxLength={placement.caption.maxLength} />
            <Length length={preview.length} maxLength={placement.caption.maxLength} />
          </li>
        );
      })}
    </ol>
  );
}

function MediaGrid({ files }: { files: readonly MediaItem[] }) {
  if (!files.length) return null;
  return (
    <ul className="preview-media" style={{ '--preview-columns': files.length === 1 ? 1 : 2 } as CSSProperties}>
      {files.map((file) => (
        <li key={file.id}>
          <img src={file.thumbnailUrl!} alt={file.altText ?? ''} />
        </li>
      ))}
    </ul>
  );
}

function TargetPreview({
  target,
  caption,
  thread,
  placement,
  network,
  attachments,
}: {
  target: TargetDraft;
  caption: string;
  thread: readonly ThreadPartDraft[];
  placement: PlacementRules;
  network: string;
  attachments: readonly MediaItem[];
}) {
  const { account } = target;
  const rules = { ...placement.caption, maxLength: captionLimit(placement.caption, attachments.length > 0) };
  const preview = previewCaption(captionOf(target, caption), rules);
  const files = attachments.filter((file) => file.thumbnailUrl).slice(0, placement.media.max);
  const title = t('composer.previewOf', { account: `@${account.username}`, network, placement: placement.name });
  const media = <MediaGrid files={files} />;
  return (
    <article className={`preview preview-${account.provider.toLowerCase()}`} aria-label={title}>
      <header className="preview-author">
        <Avatar src={account.avatarUrl} name={account.displayName} size={40} />
        <span className="preview-names">
          <span className="preview-name">{account.displayName}</span>
          <span className="preview-handle">@{account.username}</span>
        </span>
        <NetworkIcon provider={account.provider} size={20} title="" />
      </header>
      {mediaFirst.has(account.provider) && media}
      <Caption preview={preview} maxLength={rules.maxLength} />
      {!mediaFirst.has(account.provider) && media}
      <Length length={preview.length} maxLength={rules.maxLength} />
      <ThreadChain parts={thread} placement={placement} network={network} />
    </article>
  );
}

export function Preview({
  targets,
  caption,
  thread,
  attachments,
  placementOf,
  networkOf,
}: {
  targets: readonly TargetDraft[];
  caption: string;
  thread: readonly ThreadPartDraft[];
  attachments: readonly MediaItem[];
  placementOf: (target: TargetDraft) => PlacementRules | undefined;
  networkOf: (target: TargetDraft) => string;
}) {
  return (
    // Focusable: on a wide screen it is a scrolling box of its own, which the keyboard must be able to scroll.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled from the keyboard (axe: scrollable-region-focusable)
    <section aria-labelledby="preview-title" className="previews" tabIndex={0}>
      <h2 id="preview-title">{t('composer.preview')}</h2>
      {!targets.length && <p className="preview-empty">{t('composer.previewEmpty')}</p>}
      {targets.map((target) => {
        const placement = placementOf(target);
        return (
          placement && (
            <TargetPreview
              key={target.account.id}
              target={target}
              caption={caption}
              thread={thread}
              placement={placement}
              network={networkOf(target)}
              attachments={attachments}
            />
          )
        );
      })}
    </section>
  );
}
