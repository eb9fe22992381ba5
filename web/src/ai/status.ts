// Whether the service has AI set up (`ai.available`, as GET /v1/ai says it) and the credits left: the composer and the
// media cards offer AI only where it is, and say how to set it up where it is not.
import { useQuery } from 'urql';

const AiStatusQuery = `query AiStatus { ai { available credits { remaining monthly } } }`;

export interface AiStatus {
  available: boolean;
  credits: { remaining: number; monthly: number };
}

/** The AI's status (undefined while it is read), and `reload()` after a call spent credits. */
export function useAiStatus() {
  const [{ data }, reload] = useQuery<{ ai: AiStatus }>({ query: AiStatusQuery, requestPolicy: 'cache-first' });
  return { status: data?.ai, reload: () => reload({ requestPolicy: 'network-only' }) };
}
