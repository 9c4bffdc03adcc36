import { allCalls, device } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.js';

interface Schema {
  enum?: string[];
  description?: string;
}
type Operation = {
  requestBody: { content: Record<string, { schema: { properties: Record<string, Schema> } }> };
};

const orderOf = (path: string) =>
  (buildOpenApi().paths[path]!.post as Operation).requestBody.content['application/x-www-form-urlencoded']!
    .schema.properties.order!;

describe('the API documentation of commands', () => {
  it('lists only the orders the generic send call accepts, and names the call of each other order', () => {
    const order = orderOf('/sendData/sendCommandByDeviceId');
    for (const serverOrder of ['OTA', 'APK', 'PROGRAM', 'CERTIFICATE', 'WAKE', 'NOTIFY'])
      expect(order.enum).not.toContain(serverOrder);
    expect(order.enum).toEqual(
      expect.arrayContaining(['00', '01', '02', '03', '04', '07', '08', 'SETTINGS']),
    );
    expect(order.description).toContain('OTA: /otaFile/forceUpdate');
    expect(order.description).toContain('NOTIFY: /sendMessage/insert');
    expect(order.description).toContain('CERTIFICATE: /sendData/updateCertificate');
    expect(order.description).toContain('PROGRAM: /program/packZip');
    expect(order.description).toContain('APK: /apkUpgrade/install');
    expect(order.description).toContain('WAKE: /sendData/sendPowerUpByDeviceId');
  });

  it('lists the label orders for the label call', () => {
    expect(orderOf('/sendData/sendCommandByTagIds').enum).toEqual([...device.LABEL_ORDERS]);
  });

  it('names calls that exist', () => {
    const paths = new Set(allCalls.map((call) => call.path));
    const named = Object.values(device.SERVER_ORDER_CALLS).flatMap((calls) =>
      [...calls.matchAll(/\/[\w/]+/g)].map((m) => m[0]),
    );
    expect(named.filter((path) => !paths.has(path))).toEqual([]);
    expect(Object.keys(device.SERVER_ORDER_CALLS).sort()).toEqual([...device.SERVER_ONLY_ORDERS].sort());
  });
});
