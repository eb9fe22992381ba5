// A preview per selected target: the caption as the network would show it (counted length, links shortened where the
// network shortens them, a marker where its limit cuts the text) and the first images. Plain markup, no network's look.
import { t } from '../i18n.ts';
import type { MediaItem } from '../media/MediaPicker.tsx';
import { captionOf, type PlacementRules, type TargetDraft } from './model.ts';
import { previewCaption } from './preview.ts';

function TargetPreview({
  target,
  caption,
  placement,
  network,
  attachments,
}: {
  target: TargetDraft;
  caption: string;
  placement: PlacementRules;
  network: string;
  attachments: readonly MediaItem[];
}) {
  const preview = previewCaption(captionOf(target, caption), placement.caption);
  const images = attachments.filter((file) => file.type === 'IMAGE' && file.thumbnailUrl).slice(0, placement.media.max);
  const title = t('composer.previewOf', { account: `@${target.account.username}`, network, placement: placement.name });
  return (
    <article className="preview" aria-label={title}>
      <h3>{title}</h3>
      <p className="caption">
        {preview.shown.map((piece) =>
          piece.link ? (
            <a key={piece.link.key} href={piece.link.href} title={piece.link.href} target="_blank" rel="noreferrer">
              {piece.text}
            </a>
          ) : (
            piece.text
          ),
        )}
        {preview.overflow && (
          <>
            <span className="cut" aria-hidden="true">
              ✂
            </span>
            <span className="visually-hidden">{t('composer.previewCut', { count: preview.length - placement.caption.maxLength })}</span>
            <del className="overflow">{preview.overflow}</del>
          </>
        )}
      </p>
      <p className={preview.length > placement.caption.maxLength ? 'preview-length over' : 'preview-length'}>
        {t('composer.previewLength', { length: preview.length, max: placement.caption.maxLength })}
      </p>
      {images.length > 0 && (
        <ul className="preview-images">
          {images.map((file) => (
            <li key={file.id}>
              <img src={file.thumbnailUrl!} alt={file.altText ?? ''} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

export function Preview({
  targets,
  caption,
  attachments,
  placementOf,
  networkOf,
}: {
  targets: readonly TargetDraft[];
  caption: string;
  attachments: readonly MediaItem[];
  placementOf: (target: TargetDraft) => PlacementRules | undefined;
  networkOf: (target: TargetDraft) => string;
}) {
  if (!targets.length) return null;
  return (
    <section aria-labelledby="preview-title" className="previews">
      <h2 id="preview-title">{t('composer.preview')}</h2>
      {targets.map((target) => {
        const placement = placementOf(target);
        return (
          placement && (
            <TargetPreview
              key={target.account.id}
              target={target}
              caption={caption}
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
