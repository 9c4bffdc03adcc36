import { apiTokens, device, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { md5Hex } from '../src/security/passwords.js';
import { tokenHash } from '../src/security/tokens.js';
import { bearer, makeToken } from './api-token-helpers.js';
import { enroll, enrollmentSecretOf } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, TestClient, type TestServer } from './harness.js';

/**
 * API tokens (issue 28 item 1): made in the personal centre, shown once, stored hashed, acting as
 * their user within their scope and labels, logged with their name, ended by revocation, expiry,
 * a disabled user or another password, throttled per token, and never across organisations.
 */
describe.each(backends)('API tokens on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let other: TestClient;
  let script: TestClient;
  const ids: Record<string, number> = {};
  let labelA = 0;
  let foreignLabel = 0;

  const deviceId = async (serial: string) =>
    (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', serial)
        .executeTakeFirstOrThrow()
    ).id;
  const label = async (client: TestClient, name: string, deviceIds: number[]) => {
    const made = (await client.post('/platform/group/insert', { groupName: name })).body.dataObject as {
      groupId: number;
    };
    await client.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: deviceIds.join(','),
      groupIds: String(made.groupId),
    });
    return made.groupId;
  };
  const listed = async () =>
    apiTokens.listTokens.reply.parse((await operator.get('/platform/apiToken/list')).body).listObject;

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        apiTokenLimits: { perWindow: 40, windowMs: 60_000 },
      },
    );
    operator = await signedIn(server, 'operator1', 'operator123');
    script = new TestClient(server.url);
    const secret = await enrollmentSecretOf(operator);
    for (const serial of ['TK-A0001', 'TK-A0002']) {
      await enroll(server.url, serial, secret);
      ids[serial] = await deviceId(serial);
    }
    labelA = await label(operator, 'Hall A', [ids['TK-A0001']!]);
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
    ]);
    other = await signedIn(server, 'b-customer', 'bcustomer123');
    await enroll(server.url, 'TK-B0001', await enrollmentSecretOf(other));
    ids['TK-B0001'] = await deviceId('TK-B0001');
    foreignLabel = await label(other, 'Their hall', [ids['TK-B0001']!]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shows a token once, keeps only its hash, and lists it without the secret', async () => {
    const made = await makeToken(operator, 'read', { name: 'inventory sync' });
    expect(made.token).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({
      name: 'inventory sync',
      scope: 'read',
      state: 'active',
      hint: made.token.slice(0, 7),
    });
    const row = await server.app.db.kysely
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(tokenHash(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);
    const list = await listed();
    expect(list.find((t) => t.id === made.id)).toMatchObject({ name: 'inventory sync', state: 'active' });
    expect(JSON.stringify(list)).not.toContain(made.token);
  });

  it('reads with a read token, refuses its writes in the envelope, and records the last use', async () => {
    const { token, id } = await makeToken(operator, 'read');
    const read = await script.get('/platform/device/list', bearer(token));
    expect(read.status).toBe(200);
    const rows = device.listDevices.reply.parse(read.body).listObject;
    expect(rows.map((r) => r.deviceKey).sort()).toEqual(['TK-A0001', 'TK-A0002']);
    const write = await script.post('/platform/group/insert', { groupName: 'Not allowed' }, bearer(token));
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsgKey: 'apiToken.outOfScope',
      hhtMsg: translate('en-US', 'apiToken.outOfScope', { scope: 'read', need: 'operate' }),
    });
    const account = await script.get('/platform/user/select', bearer(token));
    expect(account.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.notAllowed' });
    expect((await listed()).find((t) => t.id === id)).toMatchObject({ lastUsedAt: server.clock.now() });
    expect((await listed()).find((t) => t.id === id)?.lastUsedIp).toMatch(/127\.0\.0\.1/);
  });

  it('logs every write done with a token under the token’s name', async () => {
    const { token } = await makeToken(operator, 'operate', { name: 'timetable bot' });
    const made = await script.post('/platform/group/insert', { groupName: 'By the bot' }, bearer(token));
    expect(made.body.hhtStatus).toBe('success');
    const owner = await signedIn(server, 'customer1', 'customer123');
    const log = await owner.post('/platform/operationLog/list', { content: 'By the bot' });
    const rows = (log.body.listObject ?? []) as Array<{ userName: string; content: string }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userName).toBe('operator1');
    expect(rows[0]!.content).toContain('[API token timetable bot]');
  });

  it('ends a token when it is revoked or expires', async () => {
    const revoked = await makeToken(operator, 'read');
    expect((await script.get('/platform/device/list', bearer(revoked.token))).status).toBe(200);
    expect(
      (await operator.post('/platform/apiToken/revoke', { id: String(revoked.id) })).body.hhtStatus,
    ).toBe('success');
    const after = await script.get('/platform/device/list', bearer(revoked.token));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.invalid' });
    expect((await listed()).find((t) => t.id === revoked.id)?.state).toBe('revoked');

    const expiring = await makeToken(operator, 'read', { expiresAt: server.clock.now() + 60_000 });
    expect((await script.get('/platform/device/list', bearer(expiring.token))).status).toBe(200);
    server.clock.advance(60_001);
    expect((await script.get('/platform/device/list', bearer(expiring.token))).body.hhtMsgKey).toBe(
      'apiToken.invalid',
    );
    expect((await listed()).find((t) => t.id === expiring.id)?.state).toBe('expired');
  });

  it('refuses an unknown token, another user’s revocation and an expiry in the past', async () => {
    expect((await script.get('/platform/device/list', bearer('pf_unknown'))).status).toBe(401);
    expect((await script.get('/platform/device/list', bearer('not-a-token'))).status).toBe(401);
    const mine = await makeToken(operator, 'read');
    const theirs = await other.post('/platform/apiToken/revoke', { id: String(mine.id) });
    expect(theirs.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.notFound' });
    expect((await script.get('/platform/device/list', bearer(mine.token))).status).toBe(200);
    const past = await operator.post('/platform/apiToken/create', {
      name: 'late',
      scope: 'read',
      expiresAt: String(server.clock.now() - 1),
    });
    expect(past.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.expiryInvalid' });
  });

  it('never reaches another organisation’s panels or labels', async () => {
    const { token } = await makeToken(operator, 'operate');
    const foreign = await script.get(
      `/platform/device/selectByDeviceId?deviceId=${ids['TK-B0001']}`,
      bearer(token),
    );
    const unknown = await script.get('/platform/device/selectByDeviceId?deviceId=2147483000', bearer(token));
    expect(foreign.status).toBe(unknown.status);
    expect(foreign.body.hhtMsg).toBe(unknown.body.hhtMsg);
    expect(foreign.body.hhtStatus).toBe('fail');
    const command = await script.post(
      '/sendData/sendCommandByTagIds',
      { tagIds: String(foreignLabel), order: '03', value: '' },
      bearer(token),
    );
    expect(command.body.hhtStatus).toBe('fail');
    const theirCommands = await server.app.db.kysely
      .selectFrom('commands')
      .select('id')
      .where('device_id', '=', ids['TK-B0001']!)
      .execute();
    expect(theirCommands).toEqual([]);
    const list = device.listDevices.reply.parse(
      (await script.get('/platform/device/list', bearer(token))).body,
    );
    expect(list.listObject.map((r) => r.deviceKey)).not.toContain('TK-B0001');
  });

  it('keeps a token restricted to labels to the panels and labels it names', async () => {
    const { token } = await makeToken(operator, 'operate', { labelIds: [labelA] });
    const inside = await script.get(
      `/platform/device/selectByDeviceId?deviceId=${ids['TK-A0001']}`,
      bearer(token),
    );
    expect(inside.body.hhtStatus).toBe('success');
    const outside = await script.get(
      `/platform/device/selectByDeviceId?deviceId=${ids['TK-A0002']}`,
      bearer(token),
    );
    expect(outside.status).toBe(403);
    expect(outside.body.hhtMsgKey).toBe('apiToken.outsideLabels');
    const otherLabel = await label(operator, 'Hall B', [ids['TK-A0002']!]);
    const byLabel = await script.post(
      '/sendData/sendCommandByTagIds',
      { tagIds: String(otherLabel), order: '03', value: '' },
      bearer(token),
    );
    expect(byLabel.body.hhtMsgKey).toBe('apiToken.outsideLabels');
    const byTags = await script.post(
      '/platform/device/selectByTag',
      { tags: String(otherLabel) },
      bearer(token),
    );
    expect(byTags.body.hhtMsgKey).toBe('apiToken.outsideLabels');
    const own = await script.post('/platform/device/selectByTag', { tags: String(labelA) }, bearer(token));
    expect(own.body.hhtStatus).toBe('success');
    const foreign = await operator.post('/platform/apiToken/create', {
      name: 'foreign labels',
      scope: 'read',
      labelIds: String(foreignLabel),
    });
    expect(foreign.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.labelInvalid' });
  });

  it('throttles each token on its own', async () => {
    const busy = await makeToken(operator, 'read');
    const calm = await makeToken(operator, 'read');
    let refused: Record<string, unknown> | undefined;
    for (let i = 0; i < 41 && !refused; i++) {
      const reply = await script.get('/platform/group/list', bearer(busy.token));
      if (reply.status === 429) refused = reply.body;
    }
    expect(refused).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'apiToken.throttled' });
    expect((await script.get('/platform/group/list', bearer(calm.token))).status).toBe(200);
  });

  it('ends every token of a user whose password changes or who is disabled', async () => {
    const client = await signedIn(server, 'manager1', 'manager123');
    const before = await makeToken(client, 'read');
    const probe = (token: string) => script.get('/otaFile/list', bearer(token));
    expect((await probe(before.token)).status).toBe(200);
    const changed = await client.post('/platform/user/updatePassword', {
      userPass: md5Hex('manager123'),
      userNewPass: md5Hex('manager456'),
      userNewPass1: md5Hex('manager456'),
    });
    expect(changed.body.hhtStatus).toBe('success');
    expect((await probe(before.token)).body.hhtMsgKey).toBe('apiToken.invalid');
    const again = await makeToken(client, 'read');
    expect((await probe(again.token)).status).toBe(200);
    await server.app.db.kysely
      .updateTable('users')
      .set({ enabled: 0 })
      .where('user_name', '=', 'manager1')
      .execute();
    expect((await probe(again.token)).body.hhtMsgKey).toBe('apiToken.invalid');
  });
});
