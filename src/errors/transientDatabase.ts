// Which database failures are passing ones: the server restarting or shedding connections, a connection cut, a
// transaction losing a serialization check, a deadlock or a lock wait. They reach us in three shapes: pg's own
// errors (SQLSTATE in `code`, or Node's socket codes), the Prisma driver adapter's (`kind`, `originalCode`) and
// Prisma's (`code` P1xxx/P2xxx, the adapter's error in `meta.driverAdapterError` or `cause`).

/** A transaction ended by one of these was rolled back by PostgreSQL: running it again is safe. */
const conflictStates = new Set(['40001' /* serialization_failure */, '40P01' /* deadlock_detected */]);

const transientStates = new Set([
  ...conflictStates,
  '55P03', // lock_not_available (lock_timeout)
  '57P01', // admin_shutdown (also pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  '08000', // connection_exception and its subclasses
  '08003',
  '08006',
  '08001',
  '08004',
]);
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const adapterKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict']);
const prismaCodes = new Set([
  'P1001', // can't reach the database
  'P1002', // reached, timed out
  'P1008', // operation timed out
  'P1017', // server closed the connection
  'P2024', // timed out waiting for a pooled connection
  'P2028', // transaction not started within maxWait, or expired at its timeout (rolled back): an overloaded database
  'P2034', // write conflict or deadlock
  'P2037', // too many connections
]);
/** pg's errors for a connection lost or never made carry no code, only these messages. */
const connectionMessages = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** The error and everything it wraps, as far as we can tell. */
function* chainOf(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 8 || typeof error !== 'object' || error === null) return;
  const node = error as Record<string, unknown>;
  yield node;
  yield* chainOf(node.cause, depth + 1);
  yield* chainOf((node.meta as Record<string, unknown> | undefined)?.driverAdapterError, depth + 1);
}

function matches(error: unknown, test: (node: Record<string, unknown>) => boolean): boolean {
  for (const node of chainOf(error)) if (test(node)) return true;
  return false;
}

/** A passing failure of the database: the request may succeed if made again shortly. */
export function isTransientDatabaseFailure(error: unknown): boolean {
  return matches(error, (node) => {
    const code = typeof node.code === 'string' ? node.code : undefined;
    const originalCode = typeof node.originalCode === 'string' ? node.originalCode : undefined;
    return (
      (code !== undefined && (transientStates.has(code) || socketCodes.has(code) || prismaCodes.has(code))) ||
      (originalCode !== undefined && transientStates.has(originalCode)) ||
      (typeof node.kind === 'string' && adapterKinds.has(node.kind)) ||
      (typeof node.message === 'string' && connectionMessages.test(node.message))
    );
  });
}

/** A transaction PostgreSQL rolled back to resolve a conflict with another: running it again is safe and likely to succeed. */
export function isTransactionConflict(error: unknown): boolean {
  return matches(error, (node) => {
    const code = node.originalCode ?? node.code;
    return (typeof code === 'string' && (conflictStates.has(code) || code === 'P2034')) || node.kind === 'TransactionWriteConflict';
  });
}
