import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';

describe('simulator command line', () => {
  it('takes an enrollment secret that starts with a dash, in both spellings', () => {
    expect(parseCliArgs(['--secret', '-Ab3_x-Yz', '--devices', '3']).secret).toBe('-Ab3_x-Yz');
    expect(parseCliArgs(['--secret=-Ab3_x-Yz']).secret).toBe('-Ab3_x-Yz');
    expect(parseCliArgs(['--devices', '5', '--secret', '--double-dash']).devices).toBe('5');
    expect(parseCliArgs(['--prefix', '-P', '--secret', 's']).prefix).toBe('-P');
  });

  it('keeps its defaults and still refuses an unknown option', () => {
    expect(parseCliArgs(['--secret', 'abc'])).toMatchObject({
      devices: '10',
      server: 'http://127.0.0.1:8080',
      mqtt: 'mqtt://127.0.0.1:1883',
      prefix: 'SIM',
      telemetry: '10000',
      'ota-fail-serials': '',
    });
    expect(parseCliArgs(['--ota-fail-serials', 'DEMO-00007,DEMO-00012'])['ota-fail-serials']).toBe(
      'DEMO-00007,DEMO-00012',
    );
    expect(parseCliArgs([]).secret).toBeUndefined();
    expect(() => parseCliArgs(['--secrt', 'x'])).toThrow(/Unknown option/);
  });
});
