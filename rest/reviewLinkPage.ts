// GET /review/{token}: a review link's page; POST /review/{token}: its two actions, approve and ask for changes (a
// form post: `decision`, `name`, `comment`). Served without signing in: no cookie is read or set, so the page is the
// same for a member who happens to be signed in. Every request passes the link's and the address's rate limit first.
// An unknown, expired or revoked link is 404 with nothing of the post. The token is logged nowhere: the route
// label is the pattern, and the page sends no Referer onwards.
import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../src/runtime.ts';
import { AppError } from '../src/errors/appError.ts';
import { localizeDetail, localizeError } from '../src/errors/localize.ts';
import { mediaFileUrl } from '../src/media/library.ts';
import { decideByLink, openReviewLink, reviewPagePath } from '../src/posts/reviewLinks.ts';
import type { PostDetail } from '../src/posts/posts.ts';
import { admitReviewLinkRequest } from '../src/ratelimit/reviewLinkGuard.ts';
import { contextOf } from './requestContext.ts';
import { reviewLinkNotFoundPage, reviewLinkThrottledPage, reviewPage, reviewPagePolicy, type ReviewPageState } from './reviewPage.ts';

export function reviewLinkRouter(services: Services): Router {
  const router = express.Router();
  const { publicBaseUrl } = services.config;
  const policy = reviewPagePolicy(["'self'", new URL(publicBaseUrl).origin, ...(services.storage.directOrigin ? [services.storage.directOrigin] : [])]);
  const thumbnails = (post: PostDetail) =>
    new Map(
      post.media.flatMap((file) => {
        const url = mediaFileUrl(file, 'thumbnail', services.signer, publicBaseUrl);
        return url ? [[file.id, url] as const] : [];
      }),
    );

  const handle = (decides: boolean) => async (req: Request, res: Response) => {
    const context = contextOf(res);
    context.route = `${reviewPagePath}/{token}`;
    const token = String(req.params.token);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('content-security-policy', policy);
    res.type('html');
    try {
      await admitReviewLinkRequest(services.db.pool, token, req.ip);
      if (!decides) {
        const post = await openReviewLink(services.db, token);
        return res.send(reviewPage(post, thumbnails(post), context.language));
      }
      const form = (req.body ?? {}) as Record<string, unknown>;
      const state: ReviewPageState = { name: String(form.name ?? ''), comment: String(form.comment ?? '') };
      const kind = form.decision === 'approve' ? 'approved' : 'changes_requested';
      try {
        const post = await decideByLink(services.db, token, {
          name: state.name!,
          decision: kind === 'approved' ? { kind, comment: state.comment } : { kind, comment: state.comment! },
        });
        return res.send(reviewPage(post, thumbnails(post), context.language, { decided: kind }));
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== 'INVALID_REQUEST' && error.code !== 'INVALID_STATE_TRANSITION')) throw error;
        const problems = error.details?.map((detail) => localizeDetail(detail, context.language)).map((detail) => `${detail.field}: ${detail.message}`) ?? [
          localizeError(error, context.language).message,
        ];
        const post = await openReviewLink(services.db, token);
        return res.status(error.httpStatus).send(reviewPage(post, thumbnails(post), context.language, { ...state, problems }));
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'RATE_LIMITED') {
        for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
        return res.status(429).send(reviewLinkThrottledPage(context.language, localizeError(error, context.language).message));
      }
      if (error.code !== 'NOT_FOUND') throw error;
      return res.status(404).send(reviewLinkNotFoundPage(context.language));
    }
  };
  router.get(`${reviewPagePath}/:token`, handle(false));
  router.post(`${reviewPagePath}/:token`, express.urlencoded({ extended: false, limit: '16kb' }), handle(true));
  return router;
}
