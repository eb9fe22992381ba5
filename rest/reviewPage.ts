// The page of a review link (src/posts/reviewLinks.ts): a small server-rendered page of its own, no dashboard
// bundle and no script, in the visitor's language. It shows the post as each network will show it (the caption cut
// and its links shortened as the composer's previews do, src/posts/captionPreview.ts, with its media and thread)
// and, while the post is in review, a form to approve it or ask for changes with a name and a comment. Its one
// style sheet is inline, allowed by its hash (reviewPagePolicy); narrow screens (375 px) get one column.
import { createHash } from 'node:crypto';
import { renderMessage, type Language, type MessageKey } from '../src/errors/messages.ts';
import type { MessageParams } from '../src/errors/appError.ts';
import { previewCaption, type PreviewPiece } from '../src/posts/captionPreview.ts';
import { captionOf, type PostDetail } from '../src/posts/posts.ts';
import { threadOf } from '../src/posts/threads.ts';
import { rulesForAccount } from '../src/providers/catalog.ts';
import { escapeHtml } from './html.ts';

const style = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f5f5f5}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}
article{background:#fff;border:1px solid #ccc;border-radius:.5rem;padding:1rem;margin:1rem 0;overflow-wrap:anywhere}
article h2{font-size:1rem;margin:0 0 .5rem}
.caption{white-space:pre-wrap;margin:.5rem 0}
.link{color:#0645ad}.tag{color:#0b5394;font-weight:600}
del{color:#8b0000}
.media{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.5rem;list-style:none;padding:0;margin:.5rem 0}
.media img{width:100%;height:auto;border-radius:.25rem}
ol{padding-left:1.25rem}
form{background:#fff;border:1px solid #ccc;border-radius:.5rem;padding:1rem}
label{display:block;font-weight:600;margin-top:.75rem}
input,textarea{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #767676;border-radius:.25rem}
textarea{min-height:6rem}
.hint{font-size:.875rem;color:#4a4a4a;margin:.25rem 0 0}
.buttons{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
button{font:inherit;padding:.6rem 1rem;border-radius:.25rem;border:1px solid #1a1a1a;background:#fff;color:#1a1a1a;cursor:pointer;min-height:44px}
button.primary{background:#1d5e2d;border-color:#1d5e2d;color:#fff}
.notice{background:#e6f4ea;border:1px solid #1d5e2d;padding:.75rem;border-radius:.25rem}
.problem{background:#fdecea;border:1px solid #8b0000;padding:.75rem;border-radius:.25rem}`;

/** The page's CSP: the answers' own (nothing loads), plus this style sheet, the post's images and its one form. */
export function reviewPagePolicy(mediaSources: readonly string[]): string {
  const styleHash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
  return [
    "default-src 'none'",
    `style-src ${styleHash}`,
    `img-src ${mediaSources.join(' ')}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function page(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${style}</style></head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const textOf =
  (language: Language) =>
  (key: MessageKey, params: MessageParams = {}) =>
    escapeHtml(renderMessage(language, key, params));

function pieceHtml(piece: PreviewPiece): string {
  if (piece.kind === 'link') return `<span class="link">${escapeHtml(piece.text)}</span>`;
  return piece.kind === 'text' ? escapeHtml(piece.text) : `<span class="tag">${escapeHtml(piece.text)}</span>`;
}

function captionHtml(caption: string, rules: Parameters<typeof previewCaption>[1], text: ReturnType<typeof textOf>): string {
  const preview = previewCaption(caption, rules);
  const cut = preview.overflow
    ? ` <del title="${text('reviewPage.cut', { count: preview.length - rules.maxLength })}">${escapeHtml(preview.overflow)}</del>`
    : '';
  return `<p class="caption">${preview.shown.map(pieceHtml).join('')}${cut}</p>`;
}

/** One target as its network will show it: the account, the caption as it counts and cuts, the media, the thread. */
function targetHtml(post: PostDetail, target: PostDetail['targets'][number], images: Map<string, string>, text: ReturnType<typeof textOf>): string {
  const rules = rulesForAccount(target.account);
  const placement = rules?.placements.find((candidate) => candidate.name === target.placement);
  const heading = text('reviewPage.target', {
    account: `${target.account.displayName} (@${target.account.username})`,
    network: rules?.displayName ?? target.account.provider,
    placement: target.placement,
  });
  if (!placement) return `<article><h2>${heading}</h2><p class="caption">${escapeHtml(captionOf(post, target))}</p></article>`;
  const media = post.media.slice(0, placement.media.max).flatMap((file) => {
    const src = images.get(file.id);
    return src ? [`<li><img src="${escapeHtml(src)}" alt="${escapeHtml(file.altText ?? '')}"></li>`] : [];
  });
  const thread = placement.thread ? threadOf(post, target) : [];
  const parts = thread.map(
    (part, index) => `<li aria-label="${text('reviewPage.threadPart', { number: index + 2 })}">${captionHtml(part.caption, placement.caption, text)}</li>`,
  );
  return `<article><h2>${heading}</h2>${captionHtml(captionOf(post, target), placement.caption, text)}${
    media.length ? `<ul class="media">${media.join('')}</ul>` : ''
  }${parts.length ? `<ol start="2">${parts.join('')}</ol>` : ''}</article>`;
}

export interface ReviewPageState {
  /** What the visitor sent, shown again with the problems when it was refused. */
  name?: string;
  comment?: string;
  problems?: string[];
  /** The decision just recorded. */
  decided?: 'approved' | 'changes_requested';
}

/** The page of a link in force: the post, and the form while it is in review. `images`: media id → thumbnail URL. */
export function reviewPage(post: PostDetail, images: Map<string, string>, language: Language, state: ReviewPageState = {}): string {
  const text = textOf(language);
  const notice = state.decided
    ? `<p class="notice" role="status">${text(state.decided === 'approved' ? 'reviewPage.approved' : 'reviewPage.changesRequested')}</p>`
    : '';
  const problems = state.problems?.length ? `<p class="problem" role="alert">${text('reviewPage.fix', { problems: state.problems.join(' ') })}</p>` : '';
  const inReview = post.status === 'in_review';
  const form = inReview
    ? `<form method="post">
<label for="name">${text('reviewPage.name')}</label>
<input id="name" name="name" required maxlength="100" autocomplete="name" value="${escapeHtml(state.name ?? '')}">
<label for="comment">${text('reviewPage.comment')}</label>
<textarea id="comment" name="comment" maxlength="5000" aria-describedby="comment-hint">${escapeHtml(state.comment ?? '')}</textarea>
<p class="hint" id="comment-hint">${text('reviewPage.commentHint')}</p>
<div class="buttons">
<button class="primary" type="submit" name="decision" value="approve">${text('reviewPage.approve')}</button>
<button type="submit" name="decision" value="request_changes">${text('reviewPage.requestChanges')}</button>
</div>
</form>`
    : '';
  const status = inReview ? text('reviewPage.inReview') : text('reviewPage.notInReview', { state: post.reviewState ?? 'none' });
  return page(
    language,
    text('reviewPage.title'),
    `<h1>${text('reviewPage.title')}</h1>
${notice}${problems}
<p>${text('reviewPage.intro')}</p>
<p>${status}</p>
${post.targets.map((target) => targetHtml(post, target, images, text)).join('\n')}
${form}`,
  );
}

/** The same page for an unknown, expired or revoked link: nothing of any post. */
export function reviewLinkNotFoundPage(language: Language): string {
  const text = textOf(language);
  return page(language, text('reviewPage.notFoundTitle'), `<h1>${text('reviewPage.notFoundTitle')}</h1>\n<p>${text('reviewPage.notFound')}</p>`);
}

/** Too many requests: the wait, in the visitor's language. */
export function reviewLinkThrottledPage(language: Language, message: string): string {
  return page(language, escapeHtml(message), `<p role="alert">${escapeHtml(message)}</p>`);
}
