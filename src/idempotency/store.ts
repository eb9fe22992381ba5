// Idempotency keys in PostgreSQL, so that they hold across server processes. A request claims its key by
// inserting it first (the primary key lets one claim win); the winner runs and stores its answer, or releases
// the key; every other request with that key gets the stored answer, or 409 while there is none yet.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '../errors/appError.ts';
import { answerKeptMs, checkIdempotencyKey, claimLeaseMs } from './rules.ts';

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface KeyedRequest {
  workspaceId: string;
  key: string;
  fingerprint: string;
}

/** Ours to run (store the answer or release the key with `claimId`), or an earlier answer to replay. */
export type Claim = { kind: 'claimed'; claimId: string } | { kind: 'replay'; answer: StoredAnswer };

interface StoredRow {
  fingerprint: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/**
 * Claims the key for this request, unless a live claim holds it: then the stored answer when it is the same request,
 * else 409 CONFLICT (another request used the key, or the first is still running). An expired row (an answer past its
 * 24 hours, or a claim whose process died) is taken over.
 */
export async function claimKey(pool: pg.Pool, request: KeyedRequest): Promise<Claim> {
  checkIdempotencyKey(request.key);
  // A row released between the insert and the read is claimed on the next round.
  for (;;) {
    const claimId = randomUUID();
    const claimed = await pool.query(
      `INSERT INTO idempotent_request (workspace_id, key, fingerprint, claim_id, expires_at)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
       ON CONFLICT (workspace_id, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, status = NULL, headers = NULL, body = NULL,
             expires_at = excluded.expires_at, created_at = now()
         WHERE idempotent_request.expires_at <= now()
       RETURNING claim_id`,
      [request.workspaceId, request.key, request.fingerprint, claimId, claimLeaseMs],
    );
    if (claimed.rowCount) return { kind: 'claimed', claimId };
    const { rows } = await pool.query<StoredRow>('SELECT fingerprint, status, headers, body FROM idempotent_request WHERE workspace_id = $1 AND key = $2', [
      request.workspaceId,
      request.key,
    ]);
    const stored = rows[0];
    if (!stored) continue;
    if (stored.fingerprint !== request.fingerprint) throw new AppError('CONFLICT', 'idempotencyKeyReused');
    if (stored.status === null) throw new AppError('CONFLICT', 'idempotencyKeyInProgress');
    return { kind: 'replay', answer: { status: stored.status, headers: stored.headers ?? {}, body: stored.body ?? Buffer.alloc(0) } };
  }
}

/** Keeps the claimed request's answer for 24 hours. */
export async function storeAnswer(pool: pg.Pool, request: KeyedRequest, claimId: string, answer: StoredAnswer): Promise<void> {
  await pool.query(
    `UPDATE idempotent_request SET status = $4, headers = $5, body = $6, expires_at = now() + $7 * interval '1 millisecond'
     WHERE workspace_id = $1 AND key = $2 AND claim_id = $3`,
    [request.workspaceId, request.key, claimId, answer.status, answer.headers, answer.body, answerKeptMs],
  );
}

/** Frees the key of a request whose answer is not kept: a retry runs it again. */
export async function releaseKey(pool: pg.Pool, request: KeyedRequest, claimId: string): Promise<void> {
  await pool.query('DELETE FROM idempotent_request WHERE workspace_id = $1 AND key = $2 AND claim_id = $3 AND status IS NULL', [
    request.workspaceId,
    request.key,
    claimId,
  ]);
}

/** Forgets answers past their 24 hours and claims abandoned by dead processes; returns how many. */
export async function deleteExpiredKeys(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query('DELETE FROM idempotent_request WHERE expires_at <= now()');
  return rowCount ?? 0;
}
