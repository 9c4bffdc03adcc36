import crypto from 'node:crypto';
import { certificate, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { bundleSha256, certificateChain, makeCertificate, toPem, validCertificate } from './x509-fixtures.js';

/**
 * The certificate page (spec 2 sections 2 and 7, issue 14): a distributor uploads the X.509
 * certificate its customers' panels trust; it is checked with X509Certificate (parses, valid now,
 * chains, never a private key), stored, sent to the panels at once or when they connect, and
 * the panels report its fingerprint back.
 */
describe.each(backends)('the platform certificate on %s', (backend) => {
  let server: TestServer;
  let sales: TestClient;
  let otherSales: TestClient;
  let fleet: Fleet;
  let otherFleet: Fleet;

  const db = () => server.app.db.kysely;
  const query = async (client = sales) =>
    certificate.queryCertificate.reply.parse((await client.get('/sendData/queryCertificate')).body);
  const upload = (text: string, name = 'panels.pem', client = sales) =>
    client.post('/sendData/updateCertificate', { certificateName: name, certificate: text });
  const state = async () => ({
    certificates: await db().selectFrom('certificates').selectAll().execute(),
    commands: Number(
      (
        await db()
          .selectFrom('commands')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  /** Refused with `key` in English and Chinese; nothing stored, nothing sent. */
  async function refused(form: Record<string, string>, key: string, vars: Record<string, string> = {}) {
    const before = await state();
    const reply = await sales.post('/sendData/updateCertificate', form);
    expect(reply.body, key).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', key, vars) });
    expect(reply.status).toBe(400);
    sales.language = 'zh-CN';
    try {
      expect((await sales.post('/sendData/updateCertificate', form)).body.hhtMsg).toBe(
        translate('zh-CN', key, vars),
      );
    } finally {
      sales.language = 'en-US';
    }
    expect(await state()).toEqual(before);
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    sales = await signedIn(server, 'sales1', 'sales123');
    const operator = await operatorClient(server);
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 3,
      prefix: 'CRT',
      telemetryMs: 600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    otherSales = await signedIn(server, 'b-sales', 'bsales123');
    otherFleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(await operatorClient(server, 'b-operator', 'boperator123')),
      count: 1,
      prefix: 'CRTB',
      telemetryMs: 600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await otherFleet?.stop();
    await server?.stop();
  });

  it('has no certificate at first', async () => {
    expect(await query()).toEqual({ hhtStatus: 'success', certificateName: null, dataObject: null });
  });

  it('stores a certificate with its chain, shows its details and sends it to the panels, which report it', async () => {
    const { chain, ca } = certificateChain(
      'panels.riverside.example',
      'Riverside Test CA',
      server.clock.now(),
    );
    // A panel that is off during the upload gets it when it connects.
    await fleet.panels[2]!.powerOff();
    await waitFor('CRT-00003 offline', () => !server.app.devices.gateway.isOnline('CRT-00003'));
    const reply = await upload(`subject=CN=panels.riverside.example\n${chain}`, 'Riverside panels 2026');
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    const body = certificate.updateCertificate.reply.parse(reply.body);
    expect(body.hhtMsg).toBe(translate('en-US', 'certificate.updated', { count: 2 }));
    const sha = bundleSha256(chain);
    const leaf = new crypto.X509Certificate(chain.slice(0, chain.indexOf(ca.pem)));
    expect(body.dataObject).toMatchObject({
      certificateName: 'Riverside panels 2026',
      subject: 'CN=panels.riverside.example',
      issuer: 'CN=Riverside Test CA',
      chainLength: 2,
      uploadedBy: 'sales1',
      fingerprint: sha.toUpperCase().match(/../g)!.join(':'),
      // The chain is trusted until its first certificate expires: the leaf's end.
      validTo: Date.parse(leaf.validTo),
    });
    // Only the certificates are kept, in order, never the text around them.
    const stored = await db().selectFrom('certificates').selectAll().executeTakeFirstOrThrow();
    expect(stored.pem).not.toContain('subject=');
    expect(bundleSha256(stored.pem)).toBe(sha);

    for (const panel of fleet.panels.slice(0, 2))
      await waitFor(`${panel.serial} holds it`, () => panel.settings.certificateSha256 === sha);
    expect(fleet.panels[0]!.certificate?.pem).toBe(stored.pem);
    await waitFor('two panels holding', async () => (await query()).dataObject?.panelsHolding === 2);
    expect((await query()).dataObject).toMatchObject({ panelCount: 3, panelsHolding: 2 });

    await fleet.panels[2]!.powerOn();
    await waitFor('CRT-00003 holds it', () => fleet.panels[2]!.settings.certificateSha256 === sha);
    await waitFor('three panels holding', async () => (await query()).dataObject?.panelsHolding === 3);
    expect(await query()).toMatchObject({ certificateName: 'Riverside panels 2026' });
    // Another distributor has none, and its customers' panels got nothing.
    expect((await query(otherSales)).dataObject).toBeNull();
    expect(otherFleet.panels[0]!.certificate).toBeUndefined();
    const log = await db()
      .selectFrom('operation_logs')
      .select(['action', 'user_name'])
      .where('action', '=', 'certificate.update')
      .execute();
    expect(log).toEqual([{ action: 'certificate.update', user_name: 'sales1' }]);
  });

  it('replaces the certificate; panels move to the new one', async () => {
    const next = validCertificate('panels.riverside.example', 90, undefined, server.clock.now());
    const reply = await upload(next.pem, 'Riverside panels 2027');
    expect(reply.body.hhtStatus, reply.text).toBe('success');
    const sha = bundleSha256(next.pem);
    for (const panel of fleet.panels)
      await waitFor(`${panel.serial} moved`, () => panel.settings.certificateSha256 === sha);
    await waitFor('all hold the new one', async () => (await query()).dataObject?.panelsHolding === 3);
    expect((await query()).dataObject).toMatchObject({
      certificateName: 'Riverside panels 2027',
      chainLength: 1,
    });
  });

  it('refuses what is not a valid certificate, with the reason, and keeps the one it has', async () => {
    const now = server.clock.now();
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rsaKey = crypto
      .generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const good = validCertificate('panels.example', 30, undefined, now);
    const form = (text: string) => ({ certificateName: 'x.pem', certificate: text });

    await refused(form(keyPem), 'certificate.privateKey');
    await refused(form(rsaKey), 'certificate.privateKey');
    // A certificate with its key in the same file is refused whole.
    await refused(form(good.pem + keyPem), 'certificate.privateKey');
    await refused(form('hello, I am not a certificate'), 'certificate.invalid');
    await refused(form(toPem(Buffer.from('not DER at all'))), 'certificate.invalid');
    const publicKey = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    await refused(form(publicKey), 'certificate.invalid');
    await refused(form(good.pem.replace(/[A-Za-z](?=[A-Za-z0-9+/]{20}\n)/, '!')), 'certificate.invalid');
    const expired = makeCertificate({
      subject: 'old.example',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-06-30T12:00:00Z'),
    });
    await refused(form(expired.pem), 'certificate.expired', {
      subject: 'old.example',
      date: '2021-06-30 12:00 UTC',
    });
    const future = makeCertificate({
      subject: 'future.example',
      notBefore: new Date('2061-01-01T00:00:00Z'),
      notAfter: new Date('2062-01-01T00:00:00Z'),
    });
    await refused(form(future.pem), 'certificate.notYetValid', {
      subject: 'future.example',
      date: '2061-01-01 00:00 UTC',
    });
    // An expired CA in the chain makes the chain expire.
    const oldCa = makeCertificate({
      subject: 'Old CA',
      notBefore: new Date('2019-01-01T00:00:00Z'),
      notAfter: new Date('2022-01-01T00:00:00Z'),
      ca: true,
    });
    const leafOfOld = validCertificate('leaf.example', 30, oldCa, now);
    await refused(form(leafOfOld.pem + oldCa.pem), 'certificate.expired', {
      subject: 'Old CA',
      date: '2022-01-01 00:00 UTC',
    });
    // A leaf followed by a CA that did not issue it.
    const { leaf } = certificateChain('a.example', 'A CA', now);
    const strangerCa = validCertificate('Stranger CA', 365, undefined, now);
    await refused(form(leaf.pem + strangerCa.pem), 'certificate.chainBroken', { subject: 'a.example' });
    await refused(form(good.pem.repeat(11)), 'certificate.tooMany');
    await refused(form('   '), 'certificate.empty');
    await refused({ certificateName: 'x.pem' }, 'certificate.empty');
    await refused(form('x'.repeat(40_000)), 'certificate.tooLarge');
    await refused({ certificate: good.pem }, 'certificate.nameNull');
    await refused({ certificateName: '证'.repeat(33), certificate: good.pem }, 'certificate.nameTooLong');
    expect((await query()).dataObject?.certificateName).toBe('Riverside panels 2027');
  });

  it('is the distributor’s page: other user types are refused', async () => {
    const operator = await operatorClient(server);
    const reply = await operator.post('/sendData/updateCertificate', {
      certificateName: 'x.pem',
      certificate: validCertificate('x.example').pem,
    });
    expect(reply.status).toBe(403);
    expect((await operator.get('/sendData/queryCertificate')).status).toBe(403);
  });
});
