// The operator's allow-lists (WEBHOOK_ALLOWED_HOSTS, NETWORK_ALLOWED_HOSTS): `localhost` and this machine's
// loopback addresses name the same place, so listing one admits the others' URLs.
import { describe, expect, it } from 'vitest';
import { allowedHostsFrom, checkDestination } from '../../src/outbound/guard.ts';

const refusalCode = (url: string, listed: string) =>
  checkDestination(url, allowedHostsFrom(listed)).then(
    () => 'admitted',
    (error: { code?: string }) => error.code,
  );

describe('allow-lists', () => {
  it('`localhost` admits 127.0.0.1 and ::1, over http too', async () => {
    expect(await refusalCode('http://127.0.0.1:8080/hook', 'localhost')).toBe('admitted');
    expect(await refusalCode('http://[::1]:8080/hook', 'localhost')).toBe('admitted');
    expect(await refusalCode('http://127.0.0.1:8080/hook', ' LocalHost ')).toBe('admitted');
  });

  it('127.0.0.1 or ::1 admits `localhost`, over http too', async () => {
    expect(await refusalCode('http://localhost:8080/hook', '127.0.0.1')).toBe('admitted');
    expect(await refusalCode('http://localhost:8080/hook', '[::1]')).toBe('admitted');
  });

  it('admits nothing else: other loopback and private addresses stay refused', async () => {
    expect(await refusalCode('https://127.0.0.2/hook', 'localhost')).toBe('privateAddress');
    expect(await refusalCode('https://10.1.2.3/hook', 'localhost')).toBe('privateAddress');
    expect(await refusalCode('https://[::1]/hook', '127.0.0.1')).toBe('privateAddress');
    expect(await refusalCode('http://localhost:8080/hook', '')).toBe('httpsRequired');
  });
});
