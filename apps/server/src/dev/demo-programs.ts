import sharp from 'sharp';
import { device, materials, programs } from '@panelfleet/contract';
import type { Db } from '../db/database.js';
import { md5Hex } from '../security/passwords.js';
import { demoSession, type DemoSession } from './demo-client.js';

/** The demo's program approvers: console users of Riverside School with program roles 1 and 2. */
export const DEMO_APPROVERS = [
  { userName: 'approver1', password: 'approver123', role: 1 },
  { userName: 'approver2', password: 'approver123', role: 2 },
] as const;

/** A poster for the materials library: a coloured picture with a title, made here. */
async function poster(title: string, color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
    <rect width="100%" height="100%" fill="${color}"/>
    <text x="80" y="400" font-family="sans-serif" font-size="96" fill="#ffffff">${title}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A second of a 440 Hz tone as a WAV file (a school bell for the audio materials). */
function bell(): Buffer {
  const rate = 8000;
  const samples = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++)
    samples.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

async function uploadMaterial(
  baseUrl: string,
  session: DemoSession,
  name: string,
  fileType: string,
  bytes: Buffer,
) {
  const form = new FormData();
  form.append('fileType', fileType);
  form.append('uiFile', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${baseUrl}/material/insertMaterial`, {
    method: 'POST',
    headers: { cookie: session.cookie(), accept: 'application/json' },
    body: form,
  });
  const reply = (await response.json()) as { hhtStatus?: string; hhtMsg?: string };
  if (reply.hhtStatus !== 'success') throw new Error(`demo materials: ${name} refused: ${reply.hhtMsg}`);
  return materials.insertMaterial.reply.parse(reply).dataObject.materialId;
}

/**
 * Programs through their whole life, made through the API as the console's users would: the
 * company account adds two approvers (program roles 1 and 2), the customer administrator fills the
 * materials library, creates programs and submits one, the approvers pass it at both levels, and
 * it is published to the Library label, so the simulated panels download and play it. A draft
 * and a program waiting for level 1 show the other states. Only when the company has no program.
 */
export async function seedDemoPrograms(baseUrl: string, db: Db): Promise<string> {
  const operator = await demoSession(baseUrl, db, 'operator1', 'operator123', 'demo programs');
  const existing = programs.listPrograms.reply.parse(
    await operator.request('GET', '/program/listProgram?start=1&size=1'),
  );
  if (existing.totalRecords > 0) return 'programs and materials: as left by the last run';

  const company = await demoSession(baseUrl, db, 'customer1', 'customer123', 'demo approvers');
  for (const approver of DEMO_APPROVERS)
    await company.request('POST', '/platform/user/onlyInsertDeviceUserForm', {
      userName: approver.userName,
      password: md5Hex(approver.password),
      phone: '+86-21-5555-0150',
      email: `${approver.userName}@riverside.example`,
      state: '1',
      role: String(approver.role),
      userType: '4',
      remark: `Approves programs at level ${approver.role}`,
    });

  const welcome = await uploadMaterial(
    baseUrl,
    operator,
    'welcome-week.png',
    '1',
    await poster('Welcome week', '#1d4e89'),
  );
  const lunch = await uploadMaterial(
    baseUrl,
    operator,
    'lunch-menu.png',
    '1',
    await poster('Lunch menu', '#2e7d32'),
  );
  const sports = await uploadMaterial(
    baseUrl,
    operator,
    'sports-day.png',
    '1',
    await poster('Sports day', '#c62828'),
  );
  await uploadMaterial(baseUrl, operator, 'school-bell.wav', '2', bell());

  const create = async (name: string, content: unknown[]) =>
    programs.insertProgram.reply.parse(
      await operator.request('POST', '/program/insert', {
        name,
        playTime: '3600',
        content: JSON.stringify(content),
      }),
    ).dataObject.programId;
  const morning = await create('Morning notices', [
    { type: 'image', materialId: welcome, duration: 20 },
    { type: 'image', materialId: lunch, duration: 15 },
    { type: 'web', url: 'https://example.com/timetable', duration: 30 },
  ]);
  const sportsDay = await create('Sports day', [{ type: 'image', materialId: sports, duration: 30 }]);
  await create('Open day (draft)', [{ type: 'image', materialId: welcome, duration: 10 }]);

  const act = (session: DemoSession, programId: number, reason: string) =>
    session.request('POST', '/approval/approvalProcess', {
      programId: String(programId),
      status: '1',
      reason,
    });
  await act(operator, morning, 'Notices for the week');
  await act(operator, sportsDay, 'For Friday');
  for (const approver of DEMO_APPROVERS) {
    const session = await demoSession(baseUrl, db, approver.userName, approver.password, 'demo approval');
    await act(session, morning, approver.role === 1 ? 'Checked the menu' : 'Approved for all screens');
    await session.request('POST', '/platform/loginOut');
  }
  const library = device.listGroups.reply
    .parse(await operator.request('GET', '/platform/group/list'))
    .listObject.find((g) => g.groupName === 'Library');
  const published = library
    ? programs.publishProgram.reply.parse(
        await operator.request('POST', '/program/packZip', {
          programId: String(morning),
          tagIds: String(library.groupId),
        }),
      ).dataObject
    : undefined;
  await operator.request('POST', '/platform/loginOut');
  await company.request('POST', '/platform/loginOut');
  return `programs: "Morning notices" approved at both levels${published ? ` and published to Library (${published.deviceCount} panels)` : ''}, "Sports day" waiting for level 1, a draft; 4 materials; approvers ${DEMO_APPROVERS.map((a) => a.userName).join(', ')}`;
}
