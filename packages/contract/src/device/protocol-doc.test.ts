import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failReply, itemReply } from '../envelope.js';
import {
  ACK_ERROR_CODES,
  COMMAND_QOS,
  DEVICE_PUBLISH_KINDS,
  MAX_CONNECT_BYTES,
  MAX_LOG_PAYLOAD_BYTES,
  MAX_LOG_UPLOAD_BYTES,
  MAX_PACKET_BYTES,
  MAX_PAYLOAD_BYTES,
  ORDER_CODES,
  PUBLISH_QOS,
  RECEIPT_QOS,
  VIRTUAL_KEYS,
  abnormalLog,
  apkInstallValue,
  appReport,
  appUsageReport,
  playReport,
  certificateValue,
  commandAck,
  commandEnvelope,
  enrollmentReply,
  enrollmentRequest,
  firmwareManifest,
  notificationValue,
  orderValueSchemas,
  otaCancelValue,
  otaValue,
  presence,
  receipt,
  screenshotValue,
  settingsChange,
  settingsReport,
  stateReport,
  wakeValue,
} from './index.js';

/**
 * docs/device-protocol.md is the contract a firmware team works from; these checks keep it and
 * the zod schemas from drifting apart. Every example marked `<!-- example: kind -->` must parse
 * with its schema; every topic and every order has an example; every field of every payload has
 * a table row in its section (type, range, unit, meaning), that row states the schema's limits,
 * and every code a field takes appears in the section.
 */
const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/device-protocol.md'), 'utf8');

interface Section {
  title: string;
  text: string;
}

/** Every heading with its text, up to the next heading of the same or a higher level. */
function sections(markdown: string): Section[] {
  const lines = markdown.split('\n');
  const headings = lines.flatMap((line, at) => {
    const m = /^(#{2,4}) (.*)$/.exec(line);
    return m ? [{ at, level: m[1]!.length, title: m[2]! }] : [];
  });
  return headings.map((h, i) => {
    const next = headings.slice(i + 1).find((other) => other.level <= h.level);
    return { title: h.title, text: lines.slice(h.at, next ? next.at : lines.length).join('\n') };
  });
}

const allSections = sections(doc);
const section = (prefix: string): string => {
  const found = allSections.find((s) => s.title.startsWith(prefix));
  if (!found) throw new Error(`docs/device-protocol.md has no section "${prefix}"`);
  return found.text;
};

/** The examples: the JSON block after each `<!-- example: kind -->`. */
const examples = [...doc.matchAll(/<!-- example: ([\w-]+) -->\s*```json\n([\s\S]*?)\n```/g)].map((m) => ({
  kind: m[1]!,
  json: m[2]!,
}));

const EXAMPLE_SCHEMAS: Record<string, z.ZodType> = {
  'enroll-request': enrollmentRequest,
  'enroll-reply': itemReply(enrollmentReply),
  'enroll-refused': failReply,
  presence,
  state: stateReport,
  apps: appReport,
  usage: appUsageReport,
  log: abnormalLog,
  settings: settingsReport,
  play: playReport,
  cmd: commandEnvelope,
  ack: commandAck,
  receipt,
  manifest: firmwareManifest,
};

// ---- the schema's fields ----

interface Field {
  /** The field's own name and its parents' (`imageSettings`, `custom`, `brightness`). */
  path: string[];
  schema: z.ZodType;
}

const def = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;

/** The schema inside optional, nullable, default, pipe (the input side) and similar wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  const d = def(schema);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
      return unwrap(d.innerType as z.ZodType);
    case 'pipe':
      return unwrap((def(d.in as z.ZodType).type === 'transform' ? d.out : d.in) as z.ZodType);
    default:
      return schema;
  }
}

/** The alternatives of a union (or the schema itself), unwrapped. */
const alternatives = (schema: z.ZodType): z.ZodType[] => {
  const inner = unwrap(schema);
  const d = def(inner);
  return d.type === 'union' ? (d.options as z.ZodType[]).flatMap(alternatives) : [inner];
};

/** Every named field, at any depth (objects, arrays of objects, unions of objects, records' values). */
function fieldsOf(schema: z.ZodType, parents: string[] = []): Field[] {
  const out: Field[] = [];
  for (const alt of alternatives(schema)) {
    const d = def(alt);
    if (d.type === 'object') {
      for (const [key, child] of Object.entries((alt as z.ZodObject).shape)) {
        out.push({ path: [...parents, key], schema: child as z.ZodType });
        out.push(...fieldsOf(child as z.ZodType, [...parents, key]));
      }
    } else if (d.type === 'array') {
      out.push(...fieldsOf(d.element as z.ZodType, parents));
    } else if (d.type === 'record') {
      out.push(...fieldsOf(d.valueType as z.ZodType, parents));
    }
  }
  return out;
}

/** Limits a row must state: string lengths, number ranges, array lengths (0 and "any size" left out). */
function limitsOf(schema: z.ZodType): number[] {
  const limits: number[] = [];
  for (const alt of alternatives(schema)) {
    const d = def(alt);
    if (d.type === 'string') {
      const s = alt as z.ZodString;
      if (s.minLength) limits.push(s.minLength);
      if (s.maxLength !== null) limits.push(s.maxLength);
    } else if (d.type === 'number') {
      const n = alt as z.ZodNumber;
      for (const bound of [n.minValue, n.maxValue]) if (bound !== null && bound !== 0) limits.push(bound);
    } else if (d.type === 'array') {
      for (const check of (d.checks as Array<{
        _zod: { def: { check: string; minimum?: number; maximum?: number } };
      }>) ?? []) {
        const c = check._zod.def;
        if (c.check === 'max_length' && c.maximum !== undefined) limits.push(c.maximum);
        if (c.check === 'min_length' && c.minimum) limits.push(c.minimum);
      }
    }
  }
  return limits.filter((l) => Math.abs(l) < 1e15);
}

/** The values an enum or a union of string literals takes (the codes a row or section must name). */
function codesOf(schema: z.ZodType): string[] {
  return alternatives(schema).flatMap((alt) => {
    const d = def(alt);
    if (d.type === 'enum') return (alt as z.ZodEnum).options.map(String);
    if (d.type === 'literal') return (d.values as unknown[]).filter((v) => typeof v === 'string') as string[];
    return [];
  });
}

// ---- the document's tables ----

/** Inline code spans (code blocks left out), without the quotes of a quoted string. */
const backticked = (text: string) =>
  [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.replace(/^"|"$/g, ''));

/** Table rows of a section whose first cell names `key` (alone, or as a step of a dotted path). */
function rowsFor(text: string, key: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .filter((line) => {
      const firstCell = line.split('|')[1] ?? '';
      return backticked(firstCell).some((token) =>
        token
          .replace(/\[\]/g, '')
          .split(/[.\s]/)
          .some((step) => step === key),
      );
    });
}

/** Every number written in a text (1,000 and 16 KiB included), with and without its sign. */
function numbersIn(text: string): Set<number> {
  const found = new Set<number>();
  for (const m of text.matchAll(/(-?\d[\d,]*(?:\.\d+)?)(\s*(KiB|MiB))?/g)) {
    const value = Number(m[1]!.replace(/,/g, ''));
    const unit = m[3] === 'KiB' ? 1024 : m[3] === 'MiB' ? 1024 * 1024 : 1;
    for (const v of [value, Math.abs(value), value * unit, Math.abs(value) * unit]) found.add(v);
  }
  return found;
}

/** The payloads and values the document describes, each with the section that does. */
const DESCRIBED: Array<[string, z.ZodType, string]> = [
  ['enrollment request', enrollmentRequest, '2. Enrollment'],
  ['enrollment reply', enrollmentReply, '2. Enrollment'],
  ['presence', presence, '3. Connection'],
  ['state report', stateReport, '5.1 '],
  ['installed apps', appReport, '5.2 '],
  ['app usage', appUsageReport, '5.3 '],
  ['abnormal log', abnormalLog, '5.4 '],
  ['settings report', settingsReport, '5.5 '],
  ['SETTINGS value', settingsChange, '5.5 '],
  ['command envelope', commandEnvelope, '5.6 '],
  ['NOTIFY value', notificationValue, '5.6 '],
  ['UNINSTALL value', orderValueSchemas.UNINSTALL, '5.6 '],
  ['OTA_CANCEL value', otaCancelValue, '5.6 '],
  ['APK_CANCEL value', orderValueSchemas.APK_CANCEL, '5.6 '],
  ['PROGRAM_STOP value', orderValueSchemas.PROGRAM_STOP, '5.6 '],
  // Its `state` holds fields of the state report (5.1), which are checked there.
  ['acknowledgement', commandAck.omit({ state: true }), '5.7 '],
  ['CERTIFICATE value', certificateValue, '5.8 '],
  ['receipt', receipt, '5.9 '],
  ['SCREENSHOT value', screenshotValue, '5.10 '],
  ['proof of play', playReport, '5.11 '],
  ['OTA value', otaValue, '6. File downloads'],
  ['firmware manifest', firmwareManifest, '6.1 '],
  ['APK value', apkInstallValue, '6.4 '],
  ['PROGRAM value', orderValueSchemas.PROGRAM, '6.5 '],
  ['WAKE value', wakeValue, '7. Power on'],
];

describe('docs/device-protocol.md against the contract', () => {
  it('has examples that parse with their schemas', () => {
    expect(examples.length).toBeGreaterThan(20);
    for (const { kind, json } of examples) {
      const schema = EXAMPLE_SCHEMAS[kind];
      expect(schema, `an example of unknown kind "${kind}"`).toBeDefined();
      let value: unknown;
      expect(() => (value = JSON.parse(json)), `${kind}: not JSON:\n${json}`).not.toThrow();
      const parsed = schema!.safeParse(value);
      expect(
        parsed.success,
        `${kind} example does not fit its schema:\n${json}\n${parsed.error?.message}`,
      ).toBe(true);
    }
  });

  it('has an example of every topic and of every order', () => {
    const kinds = new Set(examples.map((e) => e.kind));
    for (const topic of [...DEVICE_PUBLISH_KINDS, 'cmd', 'receipt'])
      expect(kinds, `no example of ${topic}`).toContain(topic);
    const orders = new Set(
      examples.filter((e) => e.kind === 'cmd').map((e) => (JSON.parse(e.json) as { order: string }).order),
    );
    expect([...orders].sort()).toEqual([...ORDER_CODES].sort());
  });

  it('has a table row for every field of every payload, stating its limits and naming its codes', () => {
    const problems: string[] = [];
    for (const [what, schema, sectionTitle] of DESCRIBED) {
      const text = section(sectionTitle);
      const named = new Set(backticked(text));
      for (const field of fieldsOf(schema)) {
        const key = field.path.at(-1)!;
        const rows = rowsFor(text, key);
        const where = `${what}: ${field.path.join('.')} (section ${sectionTitle.trim()})`;
        if (!rows.length) {
          problems.push(`${where}: no table row`);
          continue;
        }
        const stated = numbersIn(rows.join(' '));
        for (const limit of limitsOf(field.schema))
          if (!stated.has(limit)) problems.push(`${where}: the row does not state the limit ${limit}`);
        for (const code of codesOf(field.schema))
          if (!named.has(code)) problems.push(`${where}: the section does not name \`${code}\``);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every order, remote key and error code in its table', () => {
    const commands = section('5.6 ');
    for (const order of ORDER_CODES) expect(rowsFor(commands, order), `order ${order}`).not.toEqual([]);
    for (const key of VIRTUAL_KEYS) expect(rowsFor(commands, key), `remote key ${key}`).not.toEqual([]);
    const acks = section('5.7 ');
    for (const code of ACK_ERROR_CODES) expect(rowsFor(acks, code), `error code ${code}`).not.toEqual([]);
  });

  it('states the QoS of every topic and the payload and packet limits the server enforces', () => {
    const topics = section('4. Topics');
    const qos = { ...PUBLISH_QOS, cmd: COMMAND_QOS, receipt: RECEIPT_QOS };
    for (const kind of Object.keys(qos) as Array<keyof typeof qos>) {
      const row = topics.split('\n').find((line) => line.includes(`\`pf/v1/d/{key}/${kind}\``));
      expect(row, `topic ${kind}`).toBeDefined();
      expect(row!.split('|')[3]!.trim().startsWith(String(qos[kind])), `QoS of ${kind}`).toBe(true);
    }
    const kib = (bytes: number) => `${bytes / 1024} KiB`;
    for (const limit of [
      kib(MAX_PAYLOAD_BYTES),
      kib(MAX_LOG_PAYLOAD_BYTES),
      kib(MAX_PACKET_BYTES),
      kib(MAX_CONNECT_BYTES),
      `${MAX_LOG_UPLOAD_BYTES / 1024 / 1024} MiB`,
    ])
      expect(topics.includes(limit) || section('5.4 ').includes(limit), limit).toBe(true);
  });
});
