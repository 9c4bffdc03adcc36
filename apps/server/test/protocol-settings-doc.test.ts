import fs from 'node:fs';
import path from 'node:path';
import { device } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * docs/device-protocol.md must let a panel be built from it alone: every settings section and
 * field a panel reports and accepts, every picture field, the CERTIFICATE order, each written out
 * and its examples valid against the contract's schemas.
 */
const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/device-protocol.md'), 'utf8');
const sectionOf = (heading: string) => {
  const start = doc.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const next = doc.indexOf('\n### ', start + heading.length);
  return doc.slice(start, next < 0 ? undefined : next);
};
const jsonBlocks = (text: string) =>
  [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));

/** Dotted leaf paths of an object schema. */
function leaves(schema: z.ZodType, prefix = ''): string[] {
  if (!(schema instanceof z.ZodObject)) return [prefix];
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    leaves(field, prefix ? `${prefix}.${key}` : key),
  );
}

describe('the protocol document and the settings schemas', () => {
  const report = sectionOf('### 5.5 Settings report');

  it('writes out every section and field of every series', () => {
    for (const series of device.SERIES) {
      const shape = device.platformMsgSchemas[series].shape as Record<string, z.ZodType>;
      for (const [section, schema] of Object.entries(shape)) {
        expect(report, section).toContain(`\`${section}\``);
        for (const field of leaves(schema))
          if (field) expect(report, `${section}.${field}`).toContain(`\`${field}\``);
      }
    }
    for (const [code] of device.TERMINAL_LANGUAGES) expect(report, code).toContain(`\`${code}\``);
    for (const top of ['v', 'platform', 'platformMsg', 'system', 'pictureSettings', 'certificateSha256'])
      expect(report, top).toContain(`\`${top}\``);
  });

  it('writes out every picture field and the inputs of each series', () => {
    for (const field of leaves(device.pictureSetting)) expect(report, field).toContain(`\`${field}\``);
    for (const input of device.SOURCE_TYPES) expect(report, input).toContain(`\`${input}\``);
  });

  it('gives an example report that the contract accepts', () => {
    const [example] = jsonBlocks(report);
    const parsed = device.settingsReport.safeParse(example);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(Object.keys((example as { pictureSettings: object }).pictureSettings).length).toBeGreaterThan(0);
  });

  it('describes the CERTIFICATE order with a valid example', () => {
    const certificate = sectionOf('### 5.8 Platform certificate');
    const [example] = jsonBlocks(certificate) as Array<{ order: string; value: unknown }>;
    expect(example!.order).toBe(device.ORDERS.certificate);
    expect(device.certificateValue.safeParse(example!.value).success).toBe(true);
    for (const field of ['name', 'pem', 'sha256']) expect(certificate).toContain(`\`${field}\``);
    // A table row of its own, however wide the formatter pads the order column.
    expect(sectionOf('### 5.6 Command envelope')).toMatch(/^\| `CERTIFICATE` +\|/m);
  });
});
