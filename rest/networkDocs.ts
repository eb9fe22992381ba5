// GET /docs/networks/{page}: the repository's page per network (docs/networks/<network>.md, and its README.md), as
// plain text, from the installation itself: the dashboard links a network not configured here to its page, which
// then always matches the running version and works without internet. Only those files; nothing else under docs/.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { projectRoot } from '../src/projectRoot.js';
import { contextOf } from './requestContext.ts';

const networksDirectory = join(projectRoot, 'docs/networks');

export function networkDocsRouter(directory = networksDirectory): Router {
  const router = express.Router();
  const pages = new Set(existsSync(directory) ? readdirSync(directory).filter((name) => /^[\w-]+\.md$/.test(name)) : []);
  router.get('/docs/networks/:page', (req, res, next) => {
    contextOf(res).route = '/docs/networks/{page}';
    if (!pages.has(req.params.page)) return next();
    res.setHeader('cache-control', 'no-cache');
    res.type('text/plain; charset=utf-8').sendFile(req.params.page, { root: directory });
  });
  return router;
}
