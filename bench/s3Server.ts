// The bench's S3-compatible store in a process of its own, as a real store runs apart from the service: the
// s3rver of test/support/s3.ts (where tests run it in their own process, beside the code under test). Prints its
// settings as one JSON line, then serves until SIGTERM.
import { startTestS3 } from '../test/support/s3.ts';

const s3 = await startTestS3();
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, env: s3.env })}\n`);
process.once('SIGTERM', () => void s3.stop().then(() => process.exit(0)));
