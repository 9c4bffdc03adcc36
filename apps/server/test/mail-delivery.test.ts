import { accounts } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, readOutbox, signedIn, startServer, TestClient, type TestServer } from './harness.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

const DAY = 86_400_000;

/**
 * Every reply about a mail tells the truth about where it went: without a mail server
 * (SMTP_URL empty) it was written to the outbox folder, which the reply says instead of "sent";
 * with one, it was sent.
 */
describe.each(backends)('what the replies say about mail on %s', (backend) => {
  let outboxServer: TestServer;
  let smtpServer: TestServer;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const throttle = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };
    [outboxServer, smtpServer] = await Promise.all([
      startServer(backend, {}, throttle),
      startServer(backend, { SMTP_URL: sink.url }, throttle),
    ]);
  });
  afterAll(async () => {
    await Promise.all([outboxServer.stop(), smtpServer.stop()]);
    await sink.close();
  });

  /** A type-0 license of a new salesperson, for a registration. */
  async function registrationForm(server: TestServer, userName: string) {
    const admin = await signedIn(server, 'admin', 'admin123');
    const added = await admin.post('/platform/saleMan/add', {
      work_number: `S${userName.length}${userName.slice(-2)}`,
      name: `Sales ${userName}`,
      companyName: 'Mail Sales Co',
      phone: '13800000001',
      jobState: '1',
    });
    expect(added.body).toMatchObject({ hhtStatus: 'success' });
    const sales = accounts.selectSale.reply.parse((await admin.get('/platform/license/selectSale')).body);
    const saleName = String(sales.listObject.find((s) => s.name === `Sales ${userName}`)!.id);
    const license = accounts.licenseAdd.reply.parse(
      (
        await admin.post('/platform/license/add', {
          companyName: 'Mail School',
          saleName,
          state: '1',
          type: '0',
          validBeginTime: String(Date.now() - DAY),
          validEndTime: String(Date.now() + DAY),
        })
      ).body,
    ).dataObject.license;
    return {
      companyName: 'Mail School',
      saleName,
      license,
      userName,
      phone: '13800000002',
      email: `${userName}@mail.example`,
      userPass: md5Hex('mail1234'),
      secondPassword: md5Hex('mail1234'),
    };
  }

  /** The replies of the four calls that mail someone, in `language`. */
  async function replies(server: TestServer, language: string, suffix: string) {
    const anonymous = new TestClient(server.url, language);
    const register = await anonymous.post(
      '/platform/register',
      await registrationForm(server, `mail${suffix}`),
    );
    const forgot = await anonymous.post('/platform/forgetPassword', { email: 'operator1@example.com' });
    const newcomer = await signedIn(server, 'newcustomer', 'customer123', language);
    const activation = await newcomer.get('/platform/user/sendActivationEmail');
    const customer = await signedIn(server, 'customer1', 'customer123', language);
    const users = accounts.userList.reply.parse(
      (await customer.get('/platform/user/user_list?start=1&size=50')).body,
    );
    const operatorId = users.listObject.find((u) => u.userName === 'operator1')!.userId;
    const reset = await customer.post('/platform/user/userResetPassword', { userId: String(operatorId) });
    return [register, forgot, activation, reset].map((r) => ({
      status: r.body.hhtStatus,
      message: String(r.body.hhtMsg),
    }));
  }

  it('without a mail server, says each mail was written to the outbox folder, in both languages', async () => {
    const before = readOutbox(outboxServer).length;
    const english = await replies(outboxServer, 'en-US', 'en');
    for (const reply of english) {
      expect(reply.status).toBe('success');
      expect(reply.message).toContain("written to the server's outbox folder");
      expect(reply.message).not.toMatch(/\bsent\b|on its way/);
    }
    expect(english[0]!.message).toContain('mailen@mail.example');
    const chinese = await replies(outboxServer, 'zh-CN', 'zh');
    for (const reply of chinese) expect(reply.message).toContain('已写入服务器的发件箱文件夹');
    // Every one of them is really there: register, forgot, activation, reset, twice.
    expect(readOutbox(outboxServer).length - before).toBe(8);
  });

  it('with a mail server, says each mail was sent, and the server took them', async () => {
    const english = await replies(smtpServer, 'en-US', 'smtp');
    expect(english.map((r) => r.message)).toEqual([
      expect.stringContaining('We sent an activation link to mailsmtp@mail.example'),
      'If this address belongs to an account, a reset link is on its way',
      'We sent an activation link to newcustomer@example.com',
      'A reset link was sent to operator1@example.com',
    ]);
    expect(sink.recipients).toEqual([
      ['mailsmtp@mail.example'],
      ['operator1@example.com'],
      ['newcustomer@example.com'],
      ['operator1@example.com'],
    ]);
  });
});
