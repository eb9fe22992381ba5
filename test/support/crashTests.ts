// What a network's process-tier crash test is made of (the kill/restart scaffolding tiktokCrash and youtubeCrash
// spell out each): server settings whose database and media files outlive a killed process, publishing to the network
// the stand-in's settings name, and a file put in the media library of a running server through its API.
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from './database.ts';
import { uploadMedia as uploadTo, type Api } from './posts.ts';
import { scratchDataDir } from './processes.ts';

/** The public address the servers answer for (networks fetch the signed media URLs there): the stand-ins map it. */
export const crashPublicBaseUrl = 'https://publisher.example';

/** A fresh database and data folder, for every process of one test: what one kills, the next finds. */
export async function crashEnvironment(networkEnv: Record<string, string>): Promise<Record<string, string>> {
  return {
    DATABASE_URL: await createTestDatabase(),
    DATA_DIR: scratchDataDir(),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // A job whose worker died is taken up again within seconds.
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: crashPublicBaseUrl,
    // The stand-ins listen on 127.0.0.1 over http.
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    ...networkEnv,
  };
}

/** A file uploaded to the server at `serverUrl` and completed: its media id once processed. */
export function uploadMedia(api: Api, serverUrl: string, file: { bytes: Buffer; filename: string; contentType: string }): Promise<string> {
  return uploadTo(api, { publicBaseUrl: crashPublicBaseUrl, serviceUrl: serverUrl }, file, 600);
}
