import { accounts } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import { md5Hex } from '../src/security/passwords.js';
import { backends, signedIn, startServer, TEST_PEPPER, TestClient, type TestServer } from './harness.js';

describe.each(backends)('console users and quota on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
  });
  afterAll(() => server.stop());

  it('lets a customer add users up to its quota, then refuses with the quota in the message', async () => {
    const customer = await signedIn(server, 'customer1', 'customer123');
    const existing = accounts.userList.reply.parse(
      (await customer.get('/platform/user/user_list?start=1&size=50')).body,
    ).totalRecords;
    const sales = await signedIn(server, 'sales1', 'sales123');
    const quota = existing + 2;
    expect(
      (
        await sales.post('/platform/customer/updateUserNumber', {
          customerUserNumberId: String(server.accounts.customerId),
          userNumber: String(quota),
        })
      ).body.hhtStatus,
    ).toBe('success');
    const add = (name: string) =>
      customer.post('/platform/user/onlyInsertDeviceUserForm', {
        userName: name,
        password: md5Hex('staff1234'),
        phone: '13800000009',
        email: `${name}@example.com`,
        state: '1',
        remark: 'front desk',
        role: '1',
        userType: '4',
      });
    expect((await add('staff1')).body.hhtStatus).toBe('success');
    expect((await add('staff2')).body.hhtStatus).toBe('success');
    const refused = await add('staff3');
    expect(refused.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: `Your company may have at most ${quota} users`,
    });
    const list = accounts.userList.reply.parse(
      (await customer.get('/platform/user/user_list?start=1&size=50')).body,
    );
    expect(list.totalRecords).toBe(quota);
    expect(list.listObject.map((u) => u.userName)).toEqual(expect.arrayContaining(['staff1', 'staff2']));
    await signedIn(server, 'staff1', 'staff1234');
  });

  it('keeps a user outside its valid window from signing in, and disables at once', async () => {
    const customer = await signedIn(server, 'customer1', 'customer123');
    const list = accounts.userList.reply.parse(
      (await customer.get('/platform/user/user_list?start=1&size=50&userName=operator1')).body,
    );
    const operator = list.listObject[0]!;
    const live = await signedIn(server, 'operator1', 'operator123');
    const later = Date.now() + 86_400_000;
    expect(
      (
        await customer.post('/platform/user/updateUserForm', {
          userId: String(operator.userId),
          state: '1',
          remark: '',
          validBeginTime: String(later),
          validEndTime: String(later + 86_400_000),
        })
      ).body.hhtStatus,
    ).toBe('success');
    await expect(signedIn(server, 'operator1', 'operator123')).rejects.toThrow(/not valid at this time/);
    expect(
      (
        await customer.post('/platform/user/updateUserForm', {
          userId: String(operator.userId),
          state: '0',
          remark: '',
        })
      ).body.hhtStatus,
    ).toBe('success');
    expect((await live.get('/platform/user/select')).body.status).toBe(518);
  });

  it('refuses a quota that is not digits with the spec’s message', async () => {
    const sales = await signedIn(server, 'sales1', 'sales123');
    const reply = await sales.post('/platform/customer/updateUserNumber', {
      customerUserNumberId: String(server.accounts.customerId),
      userNumber: '12a',
    });
    expect(reply.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'Digits only' });
  });
});

describe.each(backends)('tenant isolation probe on %s', (backend) => {
  let server: TestServer;
  let other: SeededAccounts;

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
      { userName: 'b-manager', password: 'bmanager123', userType: '3' },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
  });
  afterAll(() => server.stop());

  const snapshotOfB = async () =>
    server.app.db.kysely
      .selectFrom('users')
      .innerJoin('organisations', 'organisations.id', 'users.org_id')
      .select([
        'users.id',
        'users.user_name',
        'users.enabled',
        'users.phone',
        'users.email',
        'users.remark',
        'users.password_hash',
        'organisations.user_quota',
      ])
      .where('users.org_id', 'in', [other.customerId, other.distributorId])
      .orderBy('users.id')
      .execute();

  it('refuses every account call made by customer A’s users with ids of customer B or ids that do not exist', async () => {
    const before = await snapshotOfB();
    const bUser = String(other.userIds['b-operator']);
    const bCustomer = String(other.userIds['b-customer']);
    const bOrg = String(other.customerId);
    const missing = '987654';
    const probes: Array<[string, 'GET' | 'POST', string, Record<string, string>]> = [];
    for (const id of [bUser, bCustomer, missing]) {
      probes.push(
        [
          'updatePersonal',
          'POST',
          '/platform/user/updatePersonal',
          { userId: id, phone: '1', email: 'x@evil.example' },
        ],
        [
          'updateUserForm',
          'POST',
          '/platform/user/updateUserForm',
          { userId: id, state: '0', remark: 'owned' },
        ],
        ['deleteByUserId', 'POST', '/platform/user/deleteByUserId', { userId: id }],
        ['userResetPassword', 'POST', '/platform/user/userResetPassword', { userId: id }],
        ['customer/update', 'POST', '/platform/customer/update', { userId: id, state: '0' }],
      );
    }
    for (const id of [bOrg, missing]) {
      probes.push(
        ['getUserNumber', 'POST', '/platform/customer/getUserNumber', { customerId: id }],
        [
          'updateUserNumber',
          'POST',
          '/platform/customer/updateUserNumber',
          { customerUserNumberId: id, userNumber: '99' },
        ],
      );
    }
    probes.push(
      [
        'saleMan/add',
        'POST',
        '/platform/saleMan/add',
        { work_number: 'X1', name: 'x', companyName: 'x', phone: '1' },
      ],
      [
        'license/add',
        'POST',
        '/platform/license/add',
        { companyName: 'x', saleName: '1', state: '1', type: '0', validBeginTime: '0', validEndTime: '1' },
      ],
      ['license/delete', 'POST', '/platform/license/delete', { id: '1' }],
    );

    let calls = 0;
    let refused = 0;
    const leaks: string[] = [];
    for (const [userName, password] of [
      ['sales1', 'sales123'],
      ['customer1', 'customer123'],
      ['manager1', 'manager123'],
      ['operator1', 'operator123'],
    ] as const) {
      const client = await signedIn(server, userName, password);
      for (const [name, method, url, form] of probes) {
        const reply = method === 'GET' ? await client.get(url) : await client.post(url, form);
        calls++;
        if (reply.body.hhtStatus === 'fail' && reply.status < 500) refused++;
        else
          leaks.push(
            `${userName} ${name} ${JSON.stringify(form)} -> ${reply.status} ${JSON.stringify(reply.body)}`,
          );
      }
      for (const url of [
        '/platform/user/user_list?start=1&size=100',
        '/platform/customer/list?start=1&size=100',
      ]) {
        const reply = await client.get(url);
        calls++;
        const names = JSON.stringify(reply.body);
        if (reply.body.hhtStatus === 'fail' || !names.includes('"b-')) refused++;
        else leaks.push(`${userName} ${url} listed customer B`);
      }
    }
    console.log(`tenant isolation probe (${backend}): ${refused} of ${calls} refused`);
    expect(leaks).toEqual([]);
    expect(refused).toBe(calls);
    expect(await snapshotOfB()).toEqual(before);
  });

  it('does not let an organisation id in a body stand in for the caller’s own', async () => {
    const customer = await signedIn(server, 'customer1', 'customer123');
    const reply = await customer.post('/platform/user/onlyInsertDeviceUserForm', {
      userName: 'planted',
      password: md5Hex('planted123'),
      phone: '1',
      email: 'p@example.com',
      org_id: String(other.customerId),
      orgId: String(other.customerId),
    });
    expect(reply.body.hhtStatus).toBe('success');
    const row = await server.app.db.kysely
      .selectFrom('users')
      .select('org_id')
      .where('user_name', '=', 'planted')
      .executeTakeFirstOrThrow();
    expect(row.org_id).toBe(server.accounts.customerId);
  });

  it('refuses the platform’s calls to every customer-side user type', async () => {
    for (const [userName, password] of [
      ['customer1', 'customer123'],
      ['operator1', 'operator123'],
      ['sales1', 'sales123'],
    ] as const) {
      const client = await signedIn(server, userName, password);
      expect((await client.get('/platform/license/list')).status).toBe(403);
      expect((await client.get('/platform/saleMan/list')).status).toBe(403);
    }
    const anonymous = new TestClient(server.url);
    expect((await anonymous.get('/platform/license/list')).body.status).toBe(518);
  });
});
