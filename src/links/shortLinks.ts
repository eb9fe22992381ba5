// Short links: written when a target is claimed for publishing (before the network sees its caption), followed by
// `GET /l/<code>`. A visit records one thing, a click on the target's day (UTC): no cookie, no address, no agent.
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { linkCaption } from './caption.ts';
import { linksAsWritten, storedLinkSetting } from './setting.ts';
import { codeOf, codePattern, shortLinkOf } from './shortForm.ts';

export interface LinkedTarget {
  targetId: string;
  postId: string;
  workspaceId: string;
  connectionId: string;
  provider: string;
}

type Sql = Pick<pg.ClientBase, 'query'>;

/** The caption the target publishes under its `links` setting, its short links saved first (a retry writes the same). */
export async function publishedCaption(sql: Sql, target: LinkedTarget, caption: string, settings: Record<string, unknown>): Promise<string> {
  const setting = storedLinkSetting(settings.links) ?? linksAsWritten;
  const linked = linkCaption(caption, setting, (destination) => shortLinkOf(codeOf(target.targetId, destination)));
  if (setting.shorten && linked.destinations.length) {
    await sql.query(
      `INSERT INTO short_link (code, url, target_id, workspace_id, post_id, connection_id, provider)
       SELECT code, url, $3, $4, $5, $6, $7 FROM unnest($1::text[], $2::text[]) AS link(code, url)
       ON CONFLICT (code) DO NOTHING`,
      [
        linked.destinations.map((destination) => codeOf(target.targetId, destination)),
        linked.destinations,
        target.targetId,
        target.workspaceId,
        target.postId,
        target.connectionId,
        target.provider,
      ],
    );
  }
  return linked.caption;
}

interface Link extends LinkedTarget {
  url: string;
}

const cachedLinks = 10_000;
const cachedForMs = 60_000;

/**
 * Follows short links. Links are cached (a link never changes; a deleted post's stop within a minute) and clicks
 * are written in batches: one statement in flight at a time, the clicks that arrive meanwhile in the next one, so a
 * burst of visits costs a few writes and every answered visit is counted once its write has committed.
 */
export class ShortLinkRedirects {
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #links = new Map<string, { link: Link; until: number }>();
  #pending = new Map<string, { link: Link; day: string; clicks: number }>();
  #writing: Promise<void> = Promise.resolve();
  #next: Promise<void> | null = null;

  constructor(pool: pg.Pool, logger: Logger) {
    this.#pool = pool;
    this.#logger = logger;
  }

  /** Where the code leads, its click counted on `at`'s day; null for a code that is no link. */
  async follow(code: string, at = new Date()): Promise<string | null> {
    if (!codePattern.test(code)) return null;
    const link = await this.#lookUp(code, at.getTime());
    if (!link) return null;
    await this.#count(link, at.toISOString().slice(0, 10));
    return link.url;
  }

  async #lookUp(code: string, now: number): Promise<Link | null> {
    const cached = this.#links.get(code);
    if (cached && cached.until > now) return cached.link;
    const { rows } = await this.#pool.query<Link>(
      `SELECT url, target_id AS "targetId", post_id AS "postId", workspace_id AS "workspaceId", connection_id AS "connectionId", provider
       FROM short_link WHERE code = $1`,
      [code],
    );
    this.#links.delete(code);
    const link = rows[0] ?? null;
    if (!link) return null;
    if (this.#links.size >= cachedLinks) this.#links.delete(this.#links.keys().next().value!);
    this.#links.set(code, { link, until: now + cachedForMs });
    return link;
  }

  /** Resolves once the click is written; a failed write is logged and the visitor is still sent on. */
  #count(link: Link, day: string): Promise<void> {
    const key = `${link.targetId}/${day}`;
    const entry = this.#pending.get(key);
    if (entry) entry.clicks++;
    else this.#pending.set(key, { link, day, clicks: 1 });
    if (!this.#next) {
      this.#next = this.#writing.then(() => this.#write());
      this.#writing = this.#next;
    }
    return this.#next;
  }

  async #write(): Promise<void> {
    this.#next = null;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    try {
      await this.#pool.query(
        `INSERT INTO link_click_day (target_id, day, clicks, workspace_id, post_id, connection_id, provider)
         SELECT * FROM unnest($1::uuid[], $2::date[], $3::int[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[])
         ON CONFLICT (target_id, day) DO UPDATE SET clicks = link_click_day.clicks + EXCLUDED.clicks`,
        [
          batch.map((entry) => entry.link.targetId),
          batch.map((entry) => entry.day),
          batch.map((entry) => entry.clicks),
          batch.map((entry) => entry.link.workspaceId),
          batch.map((entry) => entry.link.postId),
          batch.map((entry) => entry.link.connectionId),
          batch.map((entry) => entry.link.provider),
        ],
      );
    } catch (error) {
      this.#logger.warn({ err: error, clicks: batch.length }, 'short link clicks not recorded');
    }
  }
}
