import { device } from '@panelfleet/contract';

/**
 * Mosquitto's dynamic-security plugin (2.0+), driven through its control topic. Mosquitto 2.0's
 * dynsec ACLs have no %u/%c substitution, so every panel gets its own role with literal topics,
 * and its client is pinned to client id = device key (a thief's CONNECT with that id and other
 * credentials is refused without touching the owner's session).
 */
export const DYNSEC_CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_CONTROL_TOPIC}/response`;

export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

export interface DynsecResponse {
  command: string;
  error?: string;
  /** Echoed from the command: which request this answers. */
  correlationData?: string;
}

export const panelRole = (deviceKey: string) => `panelfleet-panel-${deviceKey}`;

/** The ACL of docs/device-protocol.md section 4 for one panel, as literal dynsec entries. */
export function panelAcls(deviceKey: string) {
  const publish = device.DEVICE_PUBLISH_KINDS.map((kind) => ({
    acltype: 'publishClientSend',
    topic: device.deviceTopic(deviceKey, kind),
    allow: true,
  }));
  return [
    ...publish,
    ...[device.commandTopic(deviceKey), device.receiptTopic(deviceKey)].flatMap((topic) => [
      { acltype: 'subscribeLiteral', topic, allow: true },
      { acltype: 'publishClientReceive', topic, allow: true },
    ]),
  ];
}

/**
 * Commands that (re)create a panel's client with a new password. Deleting first makes enrollment
 * and re-enrollment the same path; "not found" answers to the deletes are expected.
 */
export function provisionCommands(deviceKey: string, password: string): DynsecCommand[] {
  const rolename = panelRole(deviceKey);
  return [
    { command: 'deleteClient', username: deviceKey },
    { command: 'deleteRole', rolename },
    { command: 'createRole', rolename, acls: panelAcls(deviceKey) },
    {
      command: 'createClient',
      username: deviceKey,
      password,
      clientid: deviceKey,
      roles: [{ rolename, priority: 1 }],
    },
  ];
}

/** A deleted panel: its client (Mosquitto disconnects it) and its role go. */
export const removeCommands = (deviceKey: string): DynsecCommand[] => [
  { command: 'deleteClient', username: deviceKey },
  { command: 'deleteRole', rolename: panelRole(deviceKey) },
];

export const enableCommands = (deviceKey: string, enabled: boolean): DynsecCommand[] => [
  { command: enabled ? 'enableClient' : 'disableClient', username: deviceKey },
];

/** Errors that matter: anything but the expected "not found" of a delete. */
export function unexpectedErrors(commands: DynsecCommand[], responses: DynsecResponse[]): string[] {
  return responses
    .map((r, i) => ({ r, sent: commands[i] }))
    .filter(({ r, sent }) => r.error && !(sent?.command.startsWith('delete') && /not found/i.test(r.error)))
    .map(({ r }) => `${r.command}: ${r.error}`);
}
