// The bench's OpenAI-compatible model server in a process of its own, as a real one runs apart from its callers:
// the stand-in of test/support/openaiServer.ts, answering after STAND_IN_DELAY_MS. Prints its base URL as one JSON
// line, then serves until SIGTERM.
import { startOpenAiStandIn } from '../test/support/openaiServer.ts';

const standIn = await startOpenAiStandIn();
standIn.delayMs = Number(process.env.STAND_IN_DELAY_MS ?? 0);
process.stdout.write(`${JSON.stringify({ baseUrl: standIn.baseUrl })}\n`);
process.once('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
