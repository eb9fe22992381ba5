// The operator CLI: `npx sps <command> [--json]` (the bin) or `npm run -s cli -- …`. Each command prints one JSON
// object with --json, a readable line otherwise. Exit codes: 0 done, 1 refused or failed, 2 wrong usage.
// The commands themselves are in operatorCommands.ts; this is the process around them.
import { requireSupportedNode } from './supportedNode.js';
import type { Answer } from './operatorCommands.ts';

requireSupportedNode();

function finish({ exitCode, stdout, stderr }: Answer): never {
  if (stdout) console.log(stdout);
  if (stderr) console.error(stderr);
  // The wasm schema engine leaves a 10 s timer behind; the command is done, so exit now.
  process.exit(exitCode);
}

// Loaded only now: static imports would load the dependencies (and crash in them on an old Node) before the
// version check, and --help or wrong usage need none of them.
const { readInvocation } = await import('./operatorCommands.ts');
const invocation = readInvocation(process.argv.slice(2));
if ('exitCode' in invocation) finish(invocation);

const { loadConfig } = await import('../src/config.ts');
const { createLogger } = await import('../src/logger.ts');
const { startRuntime } = await import('../src/runtime.ts');

const config = loadConfig();
let runtime: Awaited<ReturnType<typeof startRuntime>> | undefined;
let answer: Answer;
try {
  runtime = await startRuntime(config, createLogger(invocation.json ? 'silent' : config.logLevel === 'info' ? 'error' : config.logLevel), { work: false });
  answer = await invocation.run(runtime.services);
} catch (error) {
  answer = await invocation.failed(error);
}
await runtime?.stop();
finish(answer);
