import { device, machineTypes, sources, type CallDef } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MachineTypeRepository } from '../src/modules/machine-types/repository.js';
import { contentOf } from '../src/modules/operation-log/repository.js';
import { enrollmentSecretOf } from './device-helpers.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';

const THROTTLE = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };

/** Enrollment as a panel of the given series would do it. */
async function enrollAs(server: TestServer, serial: string, secret: string, machineType: string) {
  const response = await fetch(`${server.url}/device/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret, model: 'PF-86', machineType }),
  });
  device.enroll.reply.parse(await response.json());
}

describe.each(backends)('signal sources and machine types on %s', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let operator: TestClient;

  const listSources = async (client: TestClient, query = 'start=1&size=50') =>
    sources.listSource.reply.parse((await client.get(`/source/listSource?${query}`)).body);
  const listTypes = async (client: TestClient, query = 'start=1&size=50') =>
    machineTypes.listMachineTypes.reply.parse((await client.get(`/platform/machineType/list?${query}`)).body);
  const typeNamed = async (client: TestClient, name: string) =>
    (await listTypes(client, `start=1&size=50&machineType=${encodeURIComponent(name)}`)).listObject.find(
      (t) => t.machineType === name,
    );
  const listInputSourceKeys = async (client: TestClient) =>
    machineTypes.listInputSources.reply
      .parse((await client.get('/platform/machineType/listInputSource')).body)
      .listObject.map((s) => s.sourceKey);
  const sourceIds = async (...keys: string[]) => {
    const all = (await listSources(admin)).listObject;
    return keys.map((k) => all.find((s) => s.sourceKey === k)!.id).join(',');
  };
  /** The rows of one operation type, their content in English words. */
  const operationLog = async (action: string) =>
    (
      await server.app.db.kysely
        .selectFrom('operation_logs')
        .select(['content', 'detail', 'user_name'])
        .where('action', '=', action)
        .execute()
    ).map((r) => ({ user_name: r.user_name, content: contentOf(r, 'en-US').content }));

  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
    admin = await signedIn(server, 'admin', 'admin123');
    operator = await signedIn(server, 'operator1', 'operator123');
  });
  afterAll(() => server.stop());

  it('starts with the default sources and the simulator’s machine types with their inputs', async () => {
    const list = await listSources(admin);
    expect(list.listObject.map((s) => s.sourceKey)).toEqual([
      'vga',
      'front',
      'hdmi1',
      'hdmi2',
      'hdmi3',
      'pc',
      'dp',
    ]);
    const types = await listTypes(admin);
    const inputs = Object.fromEntries(
      types.listObject.map((t) => [t.machineType, t.inputSources.map((s) => s.sourceKey)]),
    );
    expect(inputs).toEqual({
      x9_vn: ['front', 'hdmi1', 'hdmi2', 'hdmi3', 'pc', 'dp'],
      oem: ['vga', 'front', 'hdmi1', 'hdmi2', 'pc', 'dp'],
      rs: ['vga', 'front', 'hdmi1', 'hdmi2', 'pc', 'dp'],
    });
    expect(types.listObject.every((t) => t.enable === '1' && t.createMan === 'system')).toBe(true);
  });

  it('adds, finds, pages, edits and deletes a signal source, and logs each write', async () => {
    const added = sources.addSource.reply.parse(
      (await admin.post('/source/addSource', { name: 'Type-C', sourceKey: 'usbc' })).body,
    );
    expect(added).toMatchObject({
      hhtMsg: 'Signal source added',
      dataObject: { name: 'Type-C', sourceKey: 'usbc' },
    });
    expect(added.dataObject.insertTime).toBe(server.clock.now());

    const found = await listSources(admin, 'start=1&size=5&name=type');
    expect(found).toMatchObject({
      totalRecords: 1,
      listObject: [{ id: added.dataObject.id, name: 'Type-C' }],
    });
    const secondPage = await listSources(admin, 'start=2&size=5');
    expect(secondPage.totalRecords).toBe(8);
    expect(secondPage.listObject.map((s) => s.sourceKey)).toEqual(['pc', 'dp', 'usbc']);

    const renamed = await admin.post('/source/updateSource', {
      id: String(added.dataObject.id),
      name: 'USB-C',
      sourceKey: 'usb-c',
    });
    expect(renamed.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Signal source saved' });
    expect((await listSources(admin, 'start=1&size=5&name=USB')).listObject[0]).toMatchObject({
      name: 'USB-C',
      sourceKey: 'usb-c',
    });

    const deleted = await admin.post('/source/deleteSource', { id: String(added.dataObject.id) });
    expect(deleted.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Signal source deleted' });
    expect((await listSources(admin)).totalRecords).toBe(7);
    expect((await operationLog('addSource'))[0]).toMatchObject({
      user_name: 'admin',
      content: 'Type-C (usbc)',
    });
    expect(await operationLog('updateSource')).toHaveLength(1);
    expect(await operationLog('deleteSource')).toHaveLength(1);
  });

  it('refuses bad signal sources with the message in the caller’s language and changes nothing', async () => {
    const zh = await signedIn(server, 'admin', 'admin123', 'zh-CN');
    const before = await listSources(admin);
    const cases: Array<[TestClient, string, Record<string, string>, string]> = [
      [admin, '/source/addSource', { name: '', sourceKey: 'x1' }, 'This field is required'],
      [zh, '/source/addSource', { name: '  ', sourceKey: 'x1' }, '此项不能为空'],
      [admin, '/source/addSource', { name: 'X', sourceKey: '' }, 'This field is required'],
      [admin, '/source/addSource', { name: 'X' }, 'This field is required'],
      [
        admin,
        '/source/addSource',
        { name: 'X', sourceKey: 'hdmi 1' },
        "Key: 1 to 32 letters, digits, '.', '_' or '-'",
      ],
      [
        zh,
        '/source/addSource',
        { name: 'X', sourceKey: '高清' },
        "标识：1 到 32 位字母、数字、'.'、'_' 或 '-'",
      ],
      [admin, '/source/addSource', { name: 'x'.repeat(33), sourceKey: 'x1' }, 'The text is too long'],
      [
        admin,
        '/source/addSource',
        { name: 'Copy', sourceKey: 'hdmi1' },
        'A signal source with this key exists',
      ],
      [zh, '/source/addSource', { name: 'Copy', sourceKey: 'hdmi1' }, '该标识的信号源已存在'],
      [
        admin,
        '/source/updateSource',
        { id: String(before.listObject[0]!.id), name: 'VGA', sourceKey: 'hdmi1' },
        'A signal source with this key exists',
      ],
      [admin, '/source/updateSource', { id: '987654', name: 'X', sourceKey: 'x1' }, 'No such signal source'],
      [admin, '/source/updateSource', { id: 'abc', name: 'X', sourceKey: 'x1' }, 'The id is not valid'],
      [admin, '/source/deleteSource', { id: '987654' }, 'No such signal source'],
      [admin, '/source/deleteSource', { id: '-3' }, 'The id is not valid'],
      [
        admin,
        '/source/deleteSource',
        { id: String(before.listObject.find((s) => s.sourceKey === 'hdmi3')!.id) },
        'Machine types use this signal source (x9_vn); it cannot be deleted',
      ],
      [
        zh,
        '/source/deleteSource',
        { id: String(before.listObject.find((s) => s.sourceKey === 'vga')!.id) },
        '机型 oem, rs 正在使用该信号源，无法删除',
      ],
    ];
    for (const [client, url, form, message] of cases) {
      const reply = await client.post(url, form);
      expect
        .soft(reply.body, `${url} ${JSON.stringify(form)}`)
        .toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect.soft(reply.status).toBeLessThan(500);
    }
    expect(await listSources(admin)).toEqual(before);
  });

  it('adds a machine type with sources in the chosen order, edits and deletes it while nothing refers to it', async () => {
    const ids = await sourceIds('hdmi2', 'front', 'dp');
    const added = machineTypes.insertMachineType.reply.parse(
      (
        await admin.post('/platform/machineType/insert', {
          machineType: 'PF-Lab',
          enable: '1',
          inputSourceIds: ids,
        })
      ).body,
    );
    const id = added.dataObject.machineTypeId;
    const one = machineTypes.selectByMachineTypeId.reply.parse(
      (await admin.get(`/platform/machineType/selectByMachineTypeId?machineTypeId=${id}`)).body,
    ).dataObject;
    expect(one).toMatchObject({
      machineType: 'PF-Lab',
      enable: '1',
      createMan: 'admin',
      referenceCount: 0,
      creationDate: server.clock.now(),
    });
    expect(one.inputSources.map((s) => s.sourceKey)).toEqual(['hdmi2', 'front', 'dp']);

    const options = machineTypes.sourcesOfMachineType.reply.parse(
      (await operator.get(`/platform/machineType/listSource?machineTypeId=${id}`)).body,
    );
    expect(options.listObject).toEqual([
      { name: 'HDMI2', sourceKey: 'hdmi2' },
      { name: 'FRONT', sourceKey: 'front' },
      { name: 'DP', sourceKey: 'dp' },
    ]);

    const edited = await admin.post('/platform/machineType/update', {
      machineTypeId: String(id),
      machineType: 'PF-Lab2',
      enable: '0',
      inputSourceIds: await sourceIds('vga'),
    });
    expect(edited.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Machine type saved' });
    expect(await typeNamed(admin, 'PF-Lab2')).toMatchObject({
      enable: '0',
      inputSources: [{ sourceKey: 'vga' }],
    });

    const emptied = await admin.post('/platform/machineType/update', {
      machineTypeId: String(id),
      machineType: 'PF-Lab2',
      enable: '0',
      inputSourceIds: '',
    });
    expect(emptied.body.hhtStatus).toBe('success');
    expect((await typeNamed(admin, 'PF-Lab2'))!.inputSources).toEqual([]);

    expect(
      (await admin.post('/platform/machineType/delete', { machineTypeId: String(id) })).body,
    ).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Machine type deleted' });
    expect(await typeNamed(admin, 'PF-Lab2')).toBeUndefined();
    expect(await operationLog('addMachineType')).toHaveLength(1);
    expect(await operationLog('deleteMachineType')).toHaveLength(1);
  });

  it('searches and pages machine types', async () => {
    for (const name of ['Search-A', 'Search-B', 'Search-C']) {
      expect(
        (
          await admin.post('/platform/machineType/insert', {
            machineType: name,
            enable: '1',
            inputSourceIds: '',
          })
        ).body.hhtStatus,
      ).toBe('success');
    }
    const first = await listTypes(admin, 'start=1&size=2&machineType=search');
    expect(first.totalRecords).toBe(3);
    expect(first.listObject.map((t) => t.machineType)).toEqual(['Search-A', 'Search-B']);
    const second = await listTypes(admin, 'start=2&size=2&machineType=search');
    expect(second.listObject.map((t) => t.machineType)).toEqual(['Search-C']);
    expect((await listTypes(admin, 'start=1&size=5&machineType=%25')).totalRecords).toBe(0);
  });

  it('resolves a device’s machine type by the name it reports, and locks name and state while devices refer to it', async () => {
    const created = machineTypes.insertMachineType.reply.parse(
      (
        await admin.post('/platform/machineType/insert', {
          machineType: 'PF-Locked',
          enable: '1',
          inputSourceIds: await sourceIds('hdmi1', 'pc'),
        })
      ).body,
    );
    const id = String(created.dataObject.machineTypeId);
    const secret = await enrollmentSecretOf(operator);
    await enrollAs(server, 'LOCK-0001', secret, 'PF-Locked');
    await enrollAs(server, 'LOCK-0002', secret, 'PF-Locked');

    const resolved = await new MachineTypeRepository(server.app.db.kysely).idsByNames([
      'PF-Locked',
      'x9_vn',
      'unknown',
      '',
    ]);
    expect(resolved.get('PF-Locked')).toBe(created.dataObject.machineTypeId);
    expect(resolved.has('x9_vn')).toBe(true);
    expect(resolved.has('unknown')).toBe(false);

    expect(await typeNamed(admin, 'PF-Locked')).toMatchObject({ referenceCount: 2 });
    const cases: Array<[Record<string, string>, string]> = [
      [
        { machineTypeId: id, machineType: 'PF-Renamed', enable: '1', inputSourceIds: '' },
        'In use by devices or files (2): its name and state cannot change',
      ],
      [
        { machineTypeId: id, machineType: 'PF-Locked', enable: '0', inputSourceIds: '' },
        'In use by devices or files (2): its name and state cannot change',
      ],
    ];
    for (const [form, message] of cases) {
      expect((await admin.post('/platform/machineType/update', form)).body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: message,
      });
    }
    const zh = await signedIn(server, 'admin', 'admin123', 'zh-CN');
    expect((await zh.post('/platform/machineType/delete', { machineTypeId: id })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '有 2 个设备或文件引用该机型，无法删除',
    });
    expect(await typeNamed(admin, 'PF-Locked')).toMatchObject({
      machineType: 'PF-Locked',
      enable: '1',
      inputSources: [{ sourceKey: 'hdmi1' }, { sourceKey: 'pc' }],
    });

    // Its input sources stay editable: the source switch of those panels follows.
    const inputs = await admin.post('/platform/machineType/update', {
      machineTypeId: id,
      machineType: 'PF-Locked',
      enable: '1',
      inputSourceIds: await sourceIds('pc', 'hdmi2'),
    });
    expect(inputs.body.hhtStatus).toBe('success');
    const options = machineTypes.sourcesOfMachineType.reply.parse(
      (await operator.get(`/platform/machineType/listSource?machineTypeId=${id}`)).body,
    );
    expect(options.listObject.map((o) => o.sourceKey)).toEqual(['pc', 'hdmi2']);
  });

  it('refuses bad machine types in both languages and changes nothing', async () => {
    const zh = await signedIn(server, 'admin', 'admin123', 'zh-CN');
    const x9 = (await typeNamed(admin, 'x9_vn'))!;
    const before = await listTypes(admin);
    const cases: Array<[TestClient, string, Record<string, string>, string]> = [
      [
        admin,
        '/platform/machineType/insert',
        { machineType: '', enable: '1', inputSourceIds: '' },
        'This field is required',
      ],
      [zh, '/platform/machineType/insert', { enable: '1' }, '此项不能为空'],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'm'.repeat(65), enable: '1' },
        'The text is too long',
      ],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'x9_vn', enable: '1' },
        'A machine type with this name exists',
      ],
      [zh, '/platform/machineType/insert', { machineType: 'x9_vn', enable: '1' }, '该机型名称已存在'],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'New', enable: '2' },
        'The state must be enabled (1) or disabled (0)',
      ],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'New', enable: '1', inputSourceIds: '1,abc' },
        'The input sources are not valid',
      ],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'New', enable: '1', inputSourceIds: '1,-2' },
        'The input sources are not valid',
      ],
      [
        admin,
        '/platform/machineType/insert',
        { machineType: 'New', enable: '1', inputSourceIds: '1,987654' },
        'A chosen input source no longer exists; reload and choose again',
      ],
      [
        zh,
        '/platform/machineType/insert',
        { machineType: 'New', enable: '1', inputSourceIds: '987654' },
        '所选输入源已不存在，请刷新后重新选择',
      ],
      [
        admin,
        '/platform/machineType/insert',
        {
          machineType: 'New',
          enable: '1',
          inputSourceIds: Array.from({ length: 51 }, (_, i) => i + 1).join(','),
        },
        'A machine type has at most 50 input sources',
      ],
      [
        admin,
        '/platform/machineType/update',
        { machineTypeId: '987654', machineType: 'New', enable: '1' },
        'No such machine type',
      ],
      [
        admin,
        '/platform/machineType/update',
        { machineTypeId: String(x9.machineTypeId), machineType: 'oem', enable: '1' },
        'A machine type with this name exists',
      ],
      [
        admin,
        '/platform/machineType/update',
        { machineTypeId: 'x', machineType: 'New', enable: '1' },
        'The id is not valid',
      ],
      [admin, '/platform/machineType/delete', { machineTypeId: '987654' }, 'No such machine type'],
      [zh, '/platform/machineType/delete', { machineTypeId: '987654' }, '机型不存在'],
    ];
    for (const [client, url, form, message] of cases) {
      const reply = await client.post(url, form);
      expect
        .soft(reply.body, `${url} ${JSON.stringify(form)}`)
        .toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect.soft(reply.status).toBeLessThan(500);
    }
    for (const url of [
      '/platform/machineType/selectByMachineTypeId?machineTypeId=987654',
      '/platform/machineType/listSource?machineTypeId=987654',
    ]) {
      expect((await admin.get(url)).body).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: 'No such machine type',
      });
    }
    expect((await admin.get('/platform/machineType/listSource')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The id is not valid',
    });
    expect(await listTypes(admin)).toEqual(before);
  });

  it('lets the platform alone change machine types and the catalog’s sources; readers follow the console’s views', async () => {
    const readers = [
      operator,
      await signedIn(server, 'sales1', 'sales123'),
      await signedIn(server, 'manager1', 'manager123'),
    ];
    const catalogId = String((await listSources(admin)).listObject[0]!.id);
    for (const reader of readers) {
      expect((await reader.get('/source/listSource?start=1&size=5')).body.hhtStatus).toBe('success');
      expect((await reader.get('/platform/machineType/list?start=1&size=5')).body.hhtStatus).toBe('success');
      expect((await reader.get('/platform/machineType/listInputSource')).body.hhtStatus).toBe('success');
      const writes: Array<[string, Record<string, string>, string]> = [
        ['/platform/machineType/insert', { machineType: 'Sneaky', enable: '1' }, 'platformOnly'],
        [
          '/platform/machineType/update',
          { machineTypeId: '1', machineType: 'Sneaky', enable: '1' },
          'platformOnly',
        ],
        ['/platform/machineType/delete', { machineTypeId: '1' }, 'platformOnly'],
        ['/source/updateSource', { id: catalogId, name: 'Sneaky', sourceKey: 'sneaky' }, 'notOwner'],
        ['/source/deleteSource', { id: catalogId }, 'notOwner'],
      ];
      for (const [url, form, refusal] of writes) {
        const reply = await reader.post(url, form);
        expect.soft(reply.status, url).toBe(403);
        expect.soft(reply.body, url).toMatchObject({
          hhtStatus: 'fail',
          hhtMsg:
            refusal === 'platformOnly'
              ? 'Only the platform administrator may change the hardware catalog'
              : 'Only the owner of this signal source may change it',
        });
      }
    }
    const zhOperator = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    expect(
      (await zhOperator.post('/platform/machineType/insert', { machineType: 'Sneaky', enable: '1' })).body
        .hhtMsg,
    ).toBe('只有平台管理员可以修改硬件目录');
    expect((await zhOperator.post('/source/deleteSource', { id: catalogId })).body.hhtMsg).toBe(
      '只有该信号源的所有者可以修改它',
    );

    // The company account has no catalog view, but its devices' source switch needs the sources.
    const company = await signedIn(server, 'customer1', 'customer123');
    expect((await company.get('/platform/machineType/list?start=1&size=5')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'You are not allowed to do this',
    });
    expect((await company.get('/source/listSource?start=1&size=5')).body.hhtStatus).toBe('fail');
    expect((await company.get('/platform/machineType/listSource?machineTypeId=1')).body.hhtStatus).toBe(
      'success',
    );
    const inactive = await signedIn(server, 'newcustomer', 'customer123');
    expect((await inactive.get('/platform/machineType/listSource?machineTypeId=1')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Please activate your account first',
    });

    expect((await listSources(admin)).listObject.some((s) => s.sourceKey === 'sneaky')).toBe(false);
    expect(await typeNamed(admin, 'Sneaky')).toBeUndefined();
  });

  it('lets a distributor, a customer manager and a customer administrator keep sources of their own', async () => {
    const sales = await signedIn(server, 'sales1', 'sales123');
    const manager = await signedIn(server, 'manager1', 'manager123');
    const add = async (client: TestClient, name: string, sourceKey: string) =>
      client.post('/source/addSource', { name, sourceKey });

    // A distributor's source reaches its customers; the company's own is its own.
    const ops = sources.addSource.reply.parse((await add(sales, 'OPS slot', 'ops')).body).dataObject;
    expect(ops).toMatchObject({ sourceKey: 'ops', owner: 'distributor', editable: true });
    const lectern = sources.addSource.reply.parse(
      (await add(operator, 'Lectern', 'lectern')).body,
    ).dataObject;
    expect(lectern).toMatchObject({ owner: 'company', editable: true });
    // A key the organisation already sees (the catalog's, its distributor's) is taken.
    expect((await add(manager, 'Copy', 'hdmi1')).body.hhtMsg).toBe('A signal source with this key exists');
    expect((await add(manager, 'Copy', 'ops')).body.hhtMsg).toBe('A signal source with this key exists');

    const seen = async (client: TestClient) =>
      (await listSources(client)).listObject.map((s) => [s.sourceKey, s.owner, s.editable]);
    expect((await seen(operator)).filter(([, owner]) => owner !== 'catalog')).toEqual([
      ['ops', 'distributor', false],
      ['lectern', 'company', true],
    ]);
    expect((await seen(manager)).filter(([, owner]) => owner !== 'catalog')).toEqual([
      ['ops', 'distributor', false],
      ['lectern', 'company', true],
    ]);
    expect((await seen(sales)).filter(([, owner]) => owner !== 'catalog')).toEqual([
      ['ops', 'distributor', true],
    ]);
    // The platform keeps the catalog: it does not see what organisations added.
    expect((await seen(admin)).every(([, owner, editable]) => owner === 'catalog' && editable)).toBe(true);

    // The company changes its own; the distributor's is read-only to it.
    expect(
      (
        await manager.post('/source/updateSource', {
          id: String(lectern.id),
          name: 'Lectern PC',
          sourceKey: 'lectern',
        })
      ).body.hhtStatus,
    ).toBe('success');
    const refused = await operator.post('/source/deleteSource', { id: String(ops.id) });
    expect({ status: refused.status, message: refused.body.hhtMsg }).toEqual({
      status: 403,
      message: 'Only the owner of this signal source may change it',
    });

    // Machine types draw on the catalog only; the source switch adds the company's and distributor's.
    expect((await listInputSourceKeys(admin)).includes('ops')).toBe(false);
    const x9 = (await typeNamed(admin, 'x9_vn'))!;
    const linked = await admin.post('/platform/machineType/update', {
      machineTypeId: String(x9.machineTypeId),
      machineType: 'x9_vn',
      enable: '1',
      inputSourceIds: String(ops.id),
    });
    expect(linked.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'A chosen input source no longer exists; reload and choose again',
    });
    const company = await signedIn(server, 'customer1', 'customer123');
    const options = machineTypes.sourcesOfMachineType.reply.parse(
      (await company.get(`/platform/machineType/listSource?machineTypeId=${x9.machineTypeId}`)).body,
    );
    expect(options.listObject.map((o) => o.sourceKey)).toEqual([
      ...x9.inputSources.map((s) => s.sourceKey),
      'ops',
      'lectern',
    ]);

    // Each write is in the operation log; deleting its own is allowed.
    expect((await operator.post('/source/deleteSource', { id: String(lectern.id) })).body.hhtStatus).toBe(
      'success',
    );
    expect((await sales.post('/source/deleteSource', { id: String(ops.id) })).body.hhtStatus).toBe('success');
    expect((await operationLog('addSource')).map((r) => r.user_name)).toEqual(
      expect.arrayContaining(['sales1', 'operator1']),
    );
    expect((await seen(operator)).every(([, owner]) => owner === 'catalog')).toBe(true);
  });
});

describe.each(backends)('the catalog without a session on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(() => server.stop());

  it('routes every catalog call of the contract and answers each with the session-expired marker', async () => {
    const calls = ([...Object.values(sources), ...Object.values(machineTypes)] as unknown[]).filter(
      (value): value is CallDef =>
        typeof value === 'object' && value !== null && 'path' in value && 'method' in value,
    );
    expect(calls.length).toBe(11);
    const anonymous = new TestClient(server.url);
    for (const call of calls) {
      const reply =
        call.method === 'GET' ? await anonymous.get(call.path) : await anonymous.post(call.path, {});
      expect.soft(reply.status, call.path).toBe(401);
      expect.soft(reply.body, call.path).toMatchObject({ hhtStatus: 'fail', status: 518 });
    }
  });
});

describe.each(backends)('the catalog on a special (OTA staff) deployment on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, { ROLE_FLAG: '1' }, THROTTLE);
  });
  afterAll(() => server.stop());

  it('is hidden from its staff, as their console hides it', async () => {
    const staff = await signedIn(server, 'sales1', 'sales123');
    for (const url of [
      '/source/listSource?start=1&size=5',
      '/platform/machineType/list?start=1&size=5',
      '/platform/machineType/listInputSource',
      '/platform/machineType/listSource?machineTypeId=1',
    ]) {
      const reply = await staff.get(url);
      expect
        .soft(reply.body, url)
        .toMatchObject({ hhtStatus: 'fail', hhtMsg: 'You are not allowed to do this' });
    }
  });
});
