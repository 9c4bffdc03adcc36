import type { Db } from '../db/database.js';
import { ReminderRepository, TipRepository } from '../modules/tips/repository.js';

/** Error tips for the codes panels report in acknowledgements (protocol 5.6, 6). */
const TIPS: Array<[code: string, en: string, zh: string]> = [
  [
    'download',
    'The panel could not download the file: check its network and send the update again.',
    '面板无法下载文件：请检查网络后重新发送升级。',
  ],
  [
    'checksum',
    'The downloaded file was damaged (SHA-256 mismatch); the panel kept its firmware.',
    '下载的文件已损坏（SHA-256 不一致），面板保留原固件。',
  ],
  ['unsupported', 'The panel does not support this command or value.', '面板不支持该指令或取值。'],
  ['expired', 'The command expired before the panel was online.', '指令在面板上线前已过期。'],
];

/**
 * The demo's catalogues: a few error tips and a reminder for the x9_vn series, written once
 * (existing rows are kept, so edits made in the demo survive a restart).
 */
export async function seedTipsAndReminders(db: Db, now: number) {
  const tips = new TipRepository(db.kysely);
  for (const [code, en, zh] of TIPS) {
    await tips.insert({ tips_code: code, language: 'en-US', message: en, update_man: 'system', at: now });
    await tips.insert({ tips_code: code, language: 'zh-CN', message: zh, update_man: 'system', at: now });
  }
  const reminders = new ReminderRepository(db.kysely);
  const platform = await reminders.platformOrgId();
  if (platform === undefined) return;
  const warningId = await reminders.insert({
    org_id: platform,
    machine_type: 'x9_vn',
    ota_version: '1.5.0',
    remark: 'Power must stay on during the update',
    create_man: 'system',
    created_at: now,
  });
  if (warningId === undefined) return;
  for (const [language, message] of [
    [
      'en_US',
      'The panel will update its firmware now. Keep it powered on until it restarts (about 5 minutes).',
    ],
    ['zh_CN', '面板即将升级固件，请保持通电直至重启完成（约5分钟）。'],
    [
      'de_DE',
      'Das Gerät aktualisiert jetzt seine Firmware. Bitte bis zum Neustart eingeschaltet lassen (ca. 5 Minuten).',
    ],
  ] as const)
    await reminders.insertMessage({ warning_id: warningId, language, message, created_at: now });
}
