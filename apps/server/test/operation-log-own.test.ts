import { logs, menuFor } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

/**
 * Issue 25 item 10: the platform and distributors have an operation log of their own actions
 * (menu entry and the list call), as company accounts and customer managers do; each reads its
 * own organisation's rows only.
 */
describe.each(backends)('the operation log of the platform and of a distributor on %s', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let sales: TestClient;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };
  const contents = async (client: TestClient) =>
    logs.listOperationLog.reply
      .parse(ok(await client.post('/platform/operationLog/list', { start: '1', size: '50' }), 'log'))
      .listObject.map((row) => `${row.userName}: ${row.content}`);

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await signedIn(server, 'admin', 'admin123');
    sales = await signedIn(server, 'sales1', 'sales123');
  });
  afterAll(() => server?.stop());

  it('each reads its own actions, not the other one', async () => {
    ok(await admin.post('/otaVersion/insert', { otaVersion: '9.8.7', enable: '1' }), 'version');
    ok(
      await sales.post('/warning/addWarning', { machineType: 'x9_vn', otaVersion: '6.5.4', remark: '' }),
      'reminder',
    );
    const platform = await contents(admin);
    const distributor = await contents(sales);
    expect(platform.some((c) => c.startsWith('admin:') && c.includes('9.8.7'))).toBe(true);
    expect(platform.some((c) => c.includes('6.5.4'))).toBe(false);
    expect(distributor.some((c) => c.startsWith('sales1:') && c.includes('6.5.4'))).toBe(true);
    expect(distributor.some((c) => c.includes('9.8.7'))).toBe(false);
  });

  it('the menus of types 0 and 1 lead to it', () => {
    expect(menuFor({ userType: '0', state: 1 }, { special: false })).toContain('operationLog');
    expect(menuFor({ userType: '1', state: 1 }, { special: false })).toContain('operationLog');
  });
});
