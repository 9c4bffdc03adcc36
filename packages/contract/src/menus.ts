/**
 * Which views a signed-in user may open, and where the user starts (spec 1 section 2,
 * spec 3 section 6). The console draws its menu from this; the server uses the same
 * answer where a call belongs to a view.
 */

export const USER_TYPES = ['0', '1', '2', '3', '4'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const VIEW_NAMES = [
  'otaPromote',
  'index1',
  'index2',
  'customerActive',
  'license',
  'personCenter',
  'modifyPassword',
  'deviceManage',
  'customerManage',
  'saleMan',
  'otaVersion',
  'machineManage',
  'Labels',
  'apk',
  'certificate',
  'customer',
  'errorMsg',
  'sourceManage',
  'upgradeManage',
  'Map',
  'renew',
  'netSpeed',
  'operationLog',
  'feedBack',
  'Broadcast',
  'setting',
  'abnormalLog',
  'ServeList',
  'report',
  'otaLog',
  'apkRenew',
  'upgradeTactics',
  'warningMsg',
  // Issue 26: the notification centre, its rules and the organisation's webhooks.
  'alerts',
  'alertRules',
  'webhooks',
  // The organisation's single sign-on (issue 29): its administrator's screen.
  'ssoSettings',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

export interface ShellUser {
  userType: UserType;
  /** Activation state: 0 inactive, 1 active. */
  state: 0 | 1;
}

export interface Deployment {
  /** Runtime role flag: true is the special-user deployment (OTA staff only). */
  special: boolean;
}

/** Menu entries in display order; the view is also the menu key and the URL segment. */
export function menuFor(user: ShellUser, deployment: Deployment): ViewName[] {
  const active = user.state === 1;
  switch (user.userType) {
    case '0':
      // Added to the spec's menu: index1 (Dashboard B over every customer, with the server host's
      // gauges) and operationLog (the platform's own actions, issue 25 item 10).
      return [
        'license',
        'otaPromote',
        'ServeList',
        'errorMsg',
        'index1',
        'operationLog',
        'alerts',
        'ssoSettings',
      ];
    case '1':
      return deployment.special
        ? ['otaPromote', 'otaLog']
        : [
            'index1',
            'customerManage',
            'otaPromote',
            'certificate',
            'netSpeed',
            'otaLog',
            'apkRenew',
            'upgradeTactics',
            // The distributor's own actions (issue 25 item 10), as type 3 has its own.
            'operationLog',
            'alerts',
            'ssoSettings',
          ];
    case '2':
      // An inactive company account can use only its activation view: its menu offers that, not
      // the spec's `customer` entry, which would only send it back to activation.
      return active ? ['index2', 'operationLog', 'customer', 'alerts', 'ssoSettings'] : ['customerActive'];
    case '3':
      return [
        ...(active ? (['index1'] as const) : []),
        'customerManage',
        'otaPromote',
        ...(active ? (['operationLog'] as const) : []),
        'abnormalLog',
        ...(active ? (['alerts'] as const) : []),
      ];
    case '4':
      return ['index2', 'deviceManage', 'upgradeManage', 'Broadcast', 'setting', 'report', 'alerts'];
  }
}

/** A type-2 user who has not activated is held on the activation view. */
export const mustActivate = (user: ShellUser) => user.userType === '2' && user.state === 0;

export function startView(user: ShellUser, deployment: Deployment): ViewName {
  switch (user.userType) {
    case '0':
      return 'license';
    case '1':
      return deployment.special ? 'otaPromote' : 'index1';
    case '2':
      return user.state === 1 ? 'index2' : 'customerActive';
    case '3':
      return 'index1';
    case '4':
      return 'index2';
  }
}

/** Views reached from a menu entry's tabs or the header rather than the menu itself. */
const SUB_VIEWS: Partial<Record<ViewName, ViewName[]>> = {
  license: ['saleMan'],
  otaPromote: ['otaVersion', 'machineManage', 'sourceManage', 'apk', 'renew', 'warningMsg', 'upgradeTactics'],
  deviceManage: ['Labels', 'Map'],
  upgradeManage: ['apk', 'renew', 'machineManage', 'otaVersion', 'sourceManage', 'upgradeTactics'],
  otaLog: ['abnormalLog'],
  // The customer administrator reads the operation log in the report's own tab (spec 3 section
  // 2.7); the operation-log view lists through a call its type may not make (issue 25 item 10).
  report: ['feedBack'],
  alerts: ['alertRules', 'webhooks'],
};

/** The views a view hosts as tabs or links (its sub-views), whoever may open them. */
export const subViewsOf = (view: ViewName): readonly ViewName[] => SUB_VIEWS[view] ?? [];

/** Every view the user may open: menu, their sub-views, the start view and the header pages. */
export function allowedViews(user: ShellUser, deployment: Deployment): Set<ViewName> {
  if (mustActivate(user)) return new Set(['customerActive']);
  const menu = menuFor(user, deployment);
  const views = new Set<ViewName>([...menu, startView(user, deployment), 'personCenter', 'modifyPassword']);
  for (const view of menu) for (const sub of SUB_VIEWS[view] ?? []) views.add(sub);
  if (deployment.special) {
    for (const hidden of ['abnormalLog', 'otaVersion', 'machineManage', 'sourceManage'] as const)
      views.delete(hidden);
  }
  return views;
}
