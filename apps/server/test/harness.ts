import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type AppOptions, type PanelFleetApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedAccounts, type SeededAccounts, type SeedUser } from '../src/dev/seed-accounts.js';
import { md5Hex } from '../src/security/passwords.js';
import { tokenHash } from '../src/security/tokens.js';

export const TEST_PEPPER = 'test-pepper-0123456789abcdef';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const backends: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export class TestClock {
  constructor(public time = Date.now()) {}
  now = () => this.time;
  advance(ms: number) {
    this.time += ms;
  }
}

export interface TestServer {
  url: string;
  dataDir: string;
  /** The PostgreSQL schema of this server's database (none on SQLite). */
  schema?: string;
  app: PanelFleetApp;
  clock: TestClock;
  accounts: SeededAccounts;
  captchaAnswer(client: TestClient): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(
  backend: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  options: AppOptions & { users?: SeedUser[] } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-test-'));
  let schema: string | undefined;
  const databaseUrl = backend === 'postgres' ? process.env.TEST_DATABASE_URL! : undefined;
  if (databaseUrl) {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
  }
  const config = testConfig(dataDir, databaseUrl, env);
  const clock = new TestClock();
  const app = await buildApp(config, { clock, logger: false, databaseSchema: schema, ...options });
  const accounts = await seedAccounts(app.db, TEST_PEPPER, clock, options.users);
  const url = await listen(app);
  return {
    url,
    dataDir,
    schema,
    app,
    clock,
    accounts,
    captchaAnswer: (client) => captchaAnswerOf(app, client),
    async stop() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema && databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

/**
 * A second instance of `first` (issue 18): the same database and the same DATA_DIR (the shared
 * directory of docs/operations.md), its own port, and a clock of its own set to the first's. It seeds and drops nothing: `first`
 * owns the database and the directory, and is stopped after it.
 */
export async function joinServer(
  first: TestServer,
  env: Record<string, string> = {},
  options: AppOptions = {},
  /** A DATA_DIR of its own (an instance on another machine), instead of the first one's. */
  dataDir = first.dataDir,
): Promise<TestServer> {
  const databaseUrl = first.schema ? process.env.TEST_DATABASE_URL! : undefined;
  const config = testConfig(dataDir, databaseUrl, env);
  // Instances' clocks agree (NTP, docs/operations.md): this one starts where the first one is.
  const clock = new TestClock(first.clock.now());
  const app = await buildApp(config, { clock, logger: false, databaseSchema: first.schema, ...options });
  const url = await listen(app);
  return {
    url,
    dataDir,
    schema: first.schema,
    app,
    clock,
    accounts: first.accounts,
    captchaAnswer: (client) => captchaAnswerOf(app, client),
    stop: () => app.close(),
  };
}

function testConfig(dataDir: string, databaseUrl: string | undefined, env: Record<string, string>) {
  return loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    ADMIN_PASSWORD: 'admin123',
    PASSWORD_PEPPER: TEST_PEPPER,
    BASE_URL: 'http://panelfleet.test',
    LOG_LEVEL: 'silent',
    // Any free port: tests run in parallel and a real Mosquitto may hold 1883.
    MQTT_PORT: '0',
    // Tests run many servers at once; a connection may take longer than production's 3 s to open.
    DB_CONNECT_TIMEOUT_MS: '15000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
}

async function listen(app: PanelFleetApp): Promise<string> {
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not listen on a port');
  return `http://127.0.0.1:${address.port}`;
}

async function captchaAnswerOf(app: PanelFleetApp, client: TestClient): Promise<string> {
  const token = client.cookie('pf_captcha');
  if (!token) throw new Error('the client has no captcha cookie');
  const row = await app.db.kysely
    .selectFrom('captchas')
    .select('answer')
    .where('id', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row) throw new Error('no pending captcha for this client');
  return row.answer;
}

export interface TestResponse {
  status: number;
  // Replies are checked against the contract's schemas by each test.
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

/** Reads a server-sent-events reply up to its first blank line, then closes it. */
async function firstEvent(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

/** A browser-like client: keeps cookies, sends a language, posts forms. */
export class TestClient {
  private cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    public language = 'en-US',
  ) {}

  cookie(name: string) {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'HEAD' | 'DELETE',
    url: string,
    init: {
      form?: Record<string, string>;
      json?: unknown;
      raw?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { 'accept-language': this.language, ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.raw !== undefined) {
      body = init.raw;
    }
    const response = await fetch(this.base + url, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    // An event stream never ends by itself: its first event is enough to judge the answer.
    const text = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? await firstEvent(response)
      : await response.text();
    let parsed: Record<string, unknown> = {};
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '')
      parsed = JSON.parse(text) as Record<string, unknown>;
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, { headers });
  }

  post(url: string, form: Record<string, string> = {}, headers?: Record<string, string>) {
    return this.request('POST', url, { form, headers });
  }
}

export interface OutboxEntry {
  to: string;
  subject: string;
  link?: string;
  file: string;
}

/** Mail the server wrote to DATA_DIR/outbox, oldest first. */
export function readOutbox(server: TestServer): OutboxEntry[] {
  const file = path.join(server.dataDir, 'outbox', 'index.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as OutboxEntry);
}

/** The newest mailed link to `to`, as a path with its query (the host is BASE_URL's). */
export function lastLinkTo(server: TestServer, to: string): URL {
  const entry = readOutbox(server)
    .filter((e) => e.to === to)
    .at(-1);
  if (!entry?.link) throw new Error(`no mail with a link to ${to}`);
  return new URL(entry.link);
}

/** Signs in through captcha and password; returns the signed-in client. */
export async function signedIn(
  server: TestServer,
  userName: string,
  password: string,
  language = 'en-US',
): Promise<TestClient> {
  const client = new TestClient(server.url, language);
  await client.get('/kaptcha/defaultKaptcha');
  const tryCode = await server.captchaAnswer(client);
  const response = await client.post('/platform/login', {
    username: userName,
    password: md5Hex(password),
    tryCode,
  });
  if (response.body.hhtStatus !== 'success')
    throw new Error(`sign-in of ${userName} failed: ${String(response.body.hhtMsg)}`);
  return client;
}
