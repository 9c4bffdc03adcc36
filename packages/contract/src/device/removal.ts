import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';
import { MAX_RECORD_ID } from '../ids.js';

/**
 * Removing a panel (issue 25 item 13), not only disabling it. keepHistory "1": the panel leaves
 * the company's panels (list, labels, pickers, dashboards), its credentials stop working and its
 * broker session ends, while its reports, OTA log and abnormal logs stay readable under its
 * name; "0": everything the panel reported goes with it. Either way the serial may enroll
 * again later as a new panel (with history kept, it finds its history again).
 */
export const removeDevice = defineCall({
  method: 'POST',
  path: '/platform/device/remove',
  summary:
    'Remove a panel of the company: keepHistory "1" keeps what it reported (reports, OTA log, abnormal logs), "0" deletes it with the panel; its credentials stop working and its broker session ends on every instance',
  tag: 'devices',
  access: callers.deviceOperators,
  params: z.object({
    deviceId: z.coerce
      .number({ error: 'device.notFound' })
      .int()
      .positive({ error: 'device.notFound' })
      .max(MAX_RECORD_ID, { error: 'device.notFound' }),
    keepHistory: z.enum(['0', '1'], { error: 'deviceManage.removeChoice' }),
  }),
  reply: itemReply(z.object({ deviceId: z.number().int(), historyKept: z.enum(['0', '1']) })),
});
