import { describe, expect, it } from 'vitest';
import { LANGUAGES, messageCatalogs, translate, type Language } from './messages.js';
import {
  counted,
  OPERATION_ACTIONS,
  operationText,
  operationTypeText,
  someOf,
  term,
  type OperationContent,
} from './operation-log.js';

const words = (language: Language, content: OperationContent) =>
  operationText(content, (key, vars) => translate(language, key, vars));

/** Every leaf key under `oplog.` of a catalog. */
function leafKeys(node: unknown, prefix: string): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, `${prefix}.${key}`));
}

describe('the operation log in words', () => {
  it('names every operation type the server writes, in both languages', () => {
    for (const language of LANGUAGES)
      for (const action of OPERATION_ACTIONS) {
        const text = operationTypeText(action, (key, vars) => translate(language, key, vars));
        expect(text, `${language} ${action}`).not.toBe(action);
        expect(text.trim(), `${language} ${action}`).not.toBe('');
      }
    expect(operationTypeText('command.send', (k) => translate('zh-CN', k))).toBe('远程控制');
  });

  it('keeps a type the catalog does not know as its code', () => {
    expect(operationTypeText('someday.newThing', (k) => translate('en-US', k))).toBe('someday.newThing');
  });

  it('has the same words in both languages', () => {
    expect(leafKeys(messageCatalogs['zh-CN'].oplog, 'oplog').sort()).toEqual(
      leafKeys(messageCatalogs['en-US'].oplog, 'oplog').sort(),
    );
  });

  it('puts a command, label names and changed settings fields into the reader’s language', () => {
    const command: OperationContent = {
      k: 'labelCommand',
      v: {
        labels: ['Classrooms', 'Library'],
        command: term('order.00', { value: 42 }),
        count: counted('panel', 18),
      },
    };
    expect(words('en-US', command)).toBe('Classrooms, Library: Brightness 42, 18 panels');
    expect(words('zh-CN', command)).toBe('Classrooms、Library：亮度 42，18 台设备');

    const template: OperationContent = {
      k: 'settingChanged',
      v: {
        setting: term('setting.templateNo', { series: 'x9_vn', id: 3 }),
        fields: [
          term('settingField', {
            section: term('section.powerOnOffSetting'),
            field: term('field.autoPowerOn'),
          }),
          term('section.language'),
        ],
      },
    };
    expect(words('en-US', template)).toBe('Template x9_vn (No. 3): Power setting › Auto power-on, Language');
    expect(words('zh-CN', template)).toBe('模板 x9_vn（编号 3）：电源设置 › 定时开机、语言');
  });

  it('names what an image or a video upload was, not an audio', () => {
    const upload = (kind: string): OperationContent => ({
      k: 'material',
      v: { kind: term(`materialKind.${kind}`), name: 'poster.png', format: 'PNG', size: '1.2 MB' },
    });
    expect(words('en-US', upload('image'))).toBe('Image poster.png (PNG, 1.2 MB)');
    expect(words('en-US', upload('video'))).toMatch(/^Video /);
    expect(words('zh-CN', upload('image'))).toBe('图片 poster.png（PNG，1.2 MB）');
    expect(operationTypeText('insertMaterial', (k) => translate('en-US', k))).toBe('Upload material');
  });

  it('shows at most a few names of a long list, then how many more', () => {
    const names = Array.from({ length: 14 }, (_, i) => `Panel ${i + 1}`);
    const shown = words('en-US', { k: 'labelAssign', v: { devices: someOf(names, 3), labels: [] } });
    expect(shown).toBe('Labels of Panel 1, Panel 2, Panel 3, 11 more: none');
  });

  it('counts one thing and many in English, alike in Chinese', () => {
    const content = (n: number): OperationContent => ({
      k: 'labelPowerUp',
      v: { labels: ['Lobby'], count: counted('panel', n) },
    });
    expect(words('en-US', content(1))).toBe('Lobby: 1 panel');
    expect(words('en-US', content(3))).toBe('Lobby: 3 panels');
    expect(words('zh-CN', content(1))).toBe('Lobby：1 台设备');
  });
});
