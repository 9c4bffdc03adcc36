import { describe, expect, it } from 'vitest';
import { mergeCatalogs } from './merge-catalogs.js';

describe('mergeCatalogs', () => {
  it('combines nested groups of several areas', () => {
    expect(mergeCatalogs({ common: { ok: 'OK' } }, { common: { no: 'No' }, ota: { file: 'File' } })).toEqual({
      common: { ok: 'OK', no: 'No' },
      ota: { file: 'File' },
    });
  });

  it('refuses a message that two areas define', () => {
    expect(() => mergeCatalogs({ common: { ok: 'OK' } }, { common: { ok: 'Fine' } })).toThrow(
      'common.ok is defined twice',
    );
  });

  it('does not change its inputs', () => {
    const base = { common: { ok: 'OK' } };
    mergeCatalogs(base, { common: { no: 'No' } });
    expect(base).toEqual({ common: { ok: 'OK' } });
  });
});
