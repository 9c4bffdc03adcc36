import { describe, expect, it } from 'vitest';
import { device } from '@panelfleet/contract';
import { changeOf, fieldsOf, switchFeature, takenSources, valueOf, withValue } from './settingFields';

describe('setting fields', () => {
  it('sets the blue light filter switch, a field named like its section, without replacing the section', () => {
    const x9 = fieldsOf('x9_vn');
    const field = x9
      .find((s) => s.section === 'bluelightFilter')!
      .fields.find((f) => f.name === 'bluelightFilter')!;
    const values = { bluelightFilter: { bluelightFilter: false, filterLevel: 12 }, language: 'en_us' };
    expect(valueOf(values, field)).toBe(false);
    expect(withValue(values, field, true)).toEqual({
      bluelightFilter: { bluelightFilter: true, filterLevel: 12 },
      language: 'en_us',
    });
    const language = x9.find((s) => s.section === 'language')!.fields[0]!;
    expect(valueOf(values, language)).toBe('en_us');
    expect(withValue(values, language, 'de_de').language).toBe('de_de');
  });

  it('offers the sections and fields of each series as the contract defines them', () => {
    const oem = fieldsOf('oem');
    expect(oem.map((s) => s.section)).toEqual(['language', 'powerOnOffSetting', 'inputOutputSetting']);
    const io = oem.find((s) => s.section === 'inputOutputSetting')!.fields;
    expect(io.find((f) => f.name === 'startingSource')!.kind).toEqual({
      kind: 'choice',
      options: ['homeScreen', 'userLastKnownSource', 'favoriteSource'],
    });
    expect(io.map((f) => f.name)).toContain('favoriteSource');
    const power = oem.find((s) => s.section === 'powerOnOffSetting')!.fields;
    expect(power.find((f) => f.name === 'powerOnTime')!.kind.kind).toBe('time');
    expect(power.find((f) => f.name === 'powerOnWeek')!.kind.kind).toBe('week');
    expect(power.find((f) => f.name === 'energySaving')!.kind.kind).toBe('energy');
    expect(power.find((f) => f.name === 'cecAutoPowerOn')!.kind.kind).toBe('bool');
    const x9 = fieldsOf('x9_vn');
    expect(x9.map((s) => s.section)).toEqual([...device.SETTING_SECTIONS]);
    expect(
      x9.find((s) => s.section === 'bluelightFilter')!.fields.find((f) => f.name === 'filterLevel')!.kind
        .kind,
    ).toBe('level');
    expect(
      fieldsOf('rs')
        .find((s) => s.section === 'toolBar')!
        .fields.find((f) => f.name === 'customizedIcon')!.kind,
    ).toEqual({ kind: 'choice', options: ['windows', 'task', 'connection'] });
  });

  it('sends only what differs from the report', () => {
    const reported = { language: 'en_us', toolBar: { left: true, right: true } };
    const language = fieldsOf('rs')[0]!.fields[0]!;
    const left = fieldsOf('rs')
      .find((s) => s.section === 'toolBar')!
      .fields.find((f) => f.name === 'left')!;
    let edited = withValue(reported, language, 'de_de');
    edited = withValue(edited, left, false);
    expect(valueOf(edited, left)).toBe(false);
    expect(changeOf(reported, edited)).toEqual({ language: 'de_de', toolBar: { left: false } });
    expect(changeOf(reported, reported)).toEqual({});
  });

  it('keeps newline extension sources apart', () => {
    const ext = {
      trucast: true,
      trucastSource: 'front',
      x10d: false,
      x10dSource: 'front',
      trucam: true,
      trucamSource: 'hdmi1',
    };
    expect([...takenSources(ext, 'x10d')].sort()).toEqual(['front', 'hdmi1']);
    expect(switchFeature(ext, 'x10d', true)).toMatchObject({ x10d: true, x10dSource: 'hdmi2' });
    expect(switchFeature(ext, 'trucast', false)).toMatchObject({ trucast: false, trucastSource: 'front' });
  });
});
