import { accounts, apk, certificate, ota, otaRules } from '@panelfleet/contract';
// The demo makes its APK and its certificate with the builders the tests use (node:crypto issues
// no certificates, and Debian has no android.jar to build an APK with).
import { apkSigner, buildApk } from '../../test/apk-fixtures.js';
import { certificateChain } from '../../test/x509-fixtures.js';
import type { Db } from '../db/database.js';
import { demoSession, type DemoSession } from './demo-client.js';

const DAY = 86_400_000;

/** A finished resumable upload (tus, as the console's uploader does it): its id. */
export async function uploadResumable(
  baseUrl: string,
  session: DemoSession,
  kind: 'apk' | 'firmware' | 'video',
  fileName: string,
  bytes: Buffer,
): Promise<string> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const created = await fetch(`${baseUrl}/upload/tus`, {
    method: 'POST',
    headers: {
      cookie: session.cookie(),
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `kind ${b64(kind)},filename ${b64(fileName)}`,
    },
  });
  const location = created.headers.get('location');
  if (!location) throw new Error(`upload of ${fileName} refused: ${created.status} ${await created.text()}`);
  const uploadId = location.split('/').pop()!;
  const patched = await fetch(`${baseUrl}/upload/tus/${uploadId}`, {
    method: 'PATCH',
    headers: {
      cookie: session.cookie(),
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  if (patched.status !== 204) throw new Error(`upload of ${fileName} failed: ${patched.status}`);
  return uploadId;
}

/**
 * The platform's side of the demo, made through the API as the platform admin would: a
 * salesperson with licences (one left for a registration, one for a private server) and the OTA
 * version catalog. Only when the platform has no salesperson yet. Returns what it did.
 */
export async function seedDemoPlatform(baseUrl: string, db: Db, adminPassword: string): Promise<string> {
  const admin = await demoSession(baseUrl, db, 'admin', adminPassword, 'demo platform');
  const sales = accounts.selectSale.reply.parse(await admin.request('GET', '/platform/license/selectSale'));
  if (sales.listObject.length > 0) return 'salespeople, licences, OTA versions: as left by the last run';
  await admin.request('POST', '/platform/saleMan/add', {
    work_number: 'S001',
    name: 'Lin Wei',
    companyName: 'North Sales Ltd',
    phone: '+86-21-5555-0110',
    jobState: '1',
  });
  const salesperson = accounts.selectSale.reply
    .parse(await admin.request('GET', '/platform/license/selectSale'))
    .listObject.find((s) => s.name === 'Lin Wei')!;
  const now = Date.now();
  const licence = async (companyName: string, type: '0' | '1') =>
    accounts.licenseAdd.reply.parse(
      await admin.request('POST', '/platform/license/add', {
        companyName,
        saleName: String(salesperson.id),
        state: '1',
        type,
        validBeginTime: String(now - DAY),
        validEndTime: String(now + 365 * DAY),
      }),
    ).dataObject.license;
  const registration = await licence('Harbour College', '0');
  const privateServer = await licence('Lakeside Hospital', '1');
  for (const version of ['1.4.2', '1.5.0', '1.6.0'])
    ota.insertOtaVersion.reply.parse(
      await admin.request('POST', '/otaVersion/insert', { otaVersion: version, enable: '1' }),
    );
  await admin.request('POST', '/platform/loginOut');
  return `salesperson Lin Wei with licences ${registration} (registration) and ${privateServer} (private server); OTA versions 1.4.2, 1.5.0, 1.6.0`;
}

/**
 * The distributor's side, as sales1 would make it: the certificate its customers' panels trust,
 * an app in its APK repository, and an upgrade strategy (a policy with a time window). Only when
 * the distributor has no certificate yet.
 */
export async function seedDemoDistributor(baseUrl: string, db: Db): Promise<string> {
  const sales = await demoSession(baseUrl, db, 'sales1', 'sales123', 'demo distributor');
  const current = certificate.queryCertificate.reply.parse(
    await sales.request('GET', '/sendData/queryCertificate'),
  );
  if (current.dataObject) return 'distributor certificate, APK, upgrade strategy: as left by the last run';
  const { chain } = certificateChain('panels.north-sales.example', 'North Sales Root CA');
  await sales.request('POST', '/sendData/updateCertificate', {
    certificateName: 'North Sales panels',
    certificate: chain,
  });
  const bytes = await buildApk(
    { packageName: 'com.northsales.signage', versionCode: 12, versionName: '2.3.0', label: 'North Signage' },
    apkSigner('North Sales Ltd'),
  );
  const uploadId = await uploadResumable(baseUrl, sales, 'apk', 'north-signage-2.3.0.apk', bytes);
  apk.uploadApk.reply.parse(
    await sales.request('POST', '/apkUpgrade/uploadApkPackage', {
      uploadId,
      mark: 'NS-SIGN-2026-A',
      remark: 'Signage player for classrooms and lobbies',
    }),
  );
  const rule = otaRules.insertOtaRule.reply.parse(
    await sales.request('POST', '/otaRule/insert', {
      name: 'Weekend nights',
      remark: 'Customers update outside school hours',
      enableIp: '0',
      enableSn: '0',
      enableTimezone: '1',
    }),
  ).dataObject.otaRuleId;
  await sales.request('POST', '/otaRule/addOtaRuleList', {
    otaRuleId: String(rule),
    timeZone: 'GMT+08:00',
    startTime: '2026-01-03 22:00:00',
    remark: 'Saturday night',
  });
  await sales.request('POST', '/platform/loginOut');
  return 'distributor: certificate "North Sales panels", APK com.northsales.signage 2.3.0, upgrade strategy "Weekend nights"';
}
