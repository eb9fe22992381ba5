// Section `import`: a CSV of 1,000 rows (one post each, across 10 sandbox accounts named `provider:username`, a third
// scheduled) checked with a dry run, then imported for real (one transaction). Prints the time of each and the SQL
// statements each sent, counted at the PostgreSQL driver of this process (every query Prisma and pg-boss send).
import pg from 'pg';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { mediaImportDeps } from '../src/media/imports.ts';
import { checkImport, importPosts } from '../src/posts/csvImport.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const rows = 1000;
const accounts = 10;

/** Counts the statements sent through any pg client of this process while `run` runs. */
async function counted<Result>(run: () => Promise<Result>): Promise<{ result: Result; statements: number; ms: number }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let statements = 0;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
  const started = performance.now();
  try {
    const result = await run();
    return { result, statements, ms: performance.now() - started };
  } finally {
    prototype.query = original;
  }
}

export async function importSection(bench: Bench): Promise<void> {
  const runtime = await benchRuntime(bench.serviceEnv);
  try {
    const { services } = runtime;
    const { apiKey } = await benchWorkspace(services, 'import');
    const { actor } = await services.callers.resolve({ kind: 'apiKey', token: apiKey! });
    const names: string[] = [];
    for (let i = 0; i < accounts; i++) {
      const username = `import-${process.pid}-${i}`;
      await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
        workspaceId: actor.workspaceId,
        provider: 'sandbox',
        username,
      });
      names.push(`sandbox:${username}`);
    }
    const at = (i: number) => new Date(Date.now() + 86_400_000 + i * 60_000).toISOString();
    const lines = Array.from({ length: rows }, (_, i) => `"Bench post ${i}, with a comma",${names[i % accounts]},,${i % 3 === 0 ? at(i) : ''},Europe/Berlin`);
    const csv = Buffer.from(['caption,accounts,placement,scheduledAt,timezone', ...lines].join('\n'));
    const deps = { ...mediaImportDeps(services), outbox: services.outbox };

    const check = await counted(() => checkImport(deps, actor, csv));
    if (!check.result.valid) throw new Error(`the bench's rows should be valid: ${JSON.stringify(check.result.rows.find((row) => row.findings.length))}`);
    const real = await counted(() => importPosts(deps, actor, csv));
    if (real.result.length !== rows) throw new Error(`imported ${real.result.length} posts, not ${rows}`);
    const line = (label: string, figures: { ms: number; statements: number }) =>
      `${label.padEnd(34)} ${(figures.ms / 1000).toFixed(2).padStart(6)} s  ${figures.statements.toString().padStart(6)} statements (${(figures.statements / rows).toFixed(1)} per row)`;
    console.log(`${rows} rows (${(csv.length / 1024).toFixed(0)} KiB), ${accounts} accounts by provider:username, ${Math.ceil(rows / 3)} scheduled`);
    console.log(line('dry run (?dryRun=true)', check));
    console.log(line('import (one transaction)', real));
  } finally {
    await runtime.stop();
  }
}
