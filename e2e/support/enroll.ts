import { expect, type Page } from '@playwright/test';
import { device } from '@panelfleet/contract';
import { apiCall } from './api.js';

/**
 * Enrolls `count` panels of series x9_vn named `<prefix>-001`, `<prefix>-002`, ... into the
 * signed-in user's company, as panels do (over HTTP, with the company's enrollment secret).
 */
export async function enrollPanels(page: Page, url: string, prefix: string, count: number) {
  const { dataObject } = await apiCall(page, url, device.getEnrollmentSecret, {});
  for (let i = 1; i <= count; i++) {
    const reply = await page.request.post(`${url}${device.enroll.path}`, {
      form: {
        v: '1',
        serial: `${prefix}-${String(i).padStart(3, '0')}`,
        enrollmentSecret: dataObject.enrollmentSecret,
        machineType: 'x9_vn',
      },
    });
    expect(reply.ok(), await reply.text()).toBe(true);
  }
}
