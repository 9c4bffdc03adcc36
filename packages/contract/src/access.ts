import { USER_TYPES, type UserType } from './menus.js';

/**
 * Who may make a call. The server enforces it in one place (its router) before any handler
 * runs, the OpenAPI document shows it, and the access-matrix test calls every route as every
 * kind of caller and checks that each refusal is the one the declaration predicts.
 *
 * - anonymous: anyone; whatever authenticates the caller (a captcha, an enrollment secret, a
 *   license, a reporting secret) is checked by the call's own service.
 * - panel: a panel with its own credentials (HTTP Basic: serial number and device password).
 * - user: a signed-in user of one of `types`; `activated` refuses a type-2 company account that
 *   has not activated yet (it may reach only the activation calls); `deployment: 'standard'`
 *   refuses every user of the special (OTA staff, ROLE_FLAG=1) deployment, whose staff reach
 *   only the calls of their own views; `programRoles` limits the call to those program roles.
 */
export type Access =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'panel' }
  | {
      readonly kind: 'user';
      readonly types: readonly UserType[];
      readonly activated: boolean;
      readonly deployment: 'any' | 'standard';
      readonly programRoles?: readonly number[];
      /** Message key of the refusal a signed-in user of another type gets (default common.forbidden). */
      readonly refusal?: string;
      /** Message key of the refusal a user of another program role gets (default common.forbidden). */
      readonly programRoleRefusal?: string;
    };

export type UserAccess = Extract<Access, { kind: 'user' }>;

export const anonymous = { kind: 'anonymous' } as const satisfies Access;
export const panel = { kind: 'panel' } as const satisfies Access;

/** Signed-in users of `types`; activated and on a standard deployment unless said otherwise. */
export function users(
  types: readonly UserType[],
  options: {
    activated?: boolean;
    deployment?: 'any' | 'standard';
    programRoles?: readonly number[];
    refusal?: string;
    programRoleRefusal?: string;
  } = {},
): UserAccess {
  return {
    kind: 'user',
    types,
    activated: options.activated ?? true,
    deployment: options.deployment ?? 'standard',
    ...(options.programRoles ? { programRoles: options.programRoles } : {}),
    ...(options.refusal ? { refusal: options.refusal } : {}),
    ...(options.programRoleRefusal ? { programRoleRefusal: options.programRoleRefusal } : {}),
  };
}

/** The declarations most calls share, named after who they let in. */
export const callers = {
  anyone: anonymous,
  panel,
  /** Any signed-in user, also an inactive company account and the special deployment's staff: the session itself. */
  session: users(USER_TYPES, { activated: false, deployment: 'any' }),
  /** Any signed-in, activated user on any deployment: own profile, own password, own avatar. */
  self: users(USER_TYPES, { deployment: 'any' }),
  /** The platform's super admin. */
  platform: users(['0']),
  /** The company account and its administrators operate the company's devices. */
  deviceOperators: users(['2', '4'], { refusal: 'device.customersOnly' }),
  /** The company account (activated) manages its own console users. */
  companyAccount: users(['2']),
  /** Customer lists: the platform, a distributor's staff, a customer manager. */
  customerManagers: users(['0', '1', '3']),
  /** Customer quotas are set by whoever sold the license. */
  quotaSetters: users(['0', '1']),
  /** Whoever may open the signal-source and machine-type views. */
  catalogReaders: users(['0', '1', '3', '4']),
  /** The hardware catalog reaches every company's panels: the platform alone changes it. */
  catalogEditors: users(['0'], { refusal: 'catalog.platformOnly' }),
  /**
   * Whoever opens the signal-source view (spec menus: types 0, 1, 3, 4) adds sources and changes
   * its own organisation's; the service keeps each to its own (the platform's are the catalog).
   */
  sourceEditors: users(['0', '1', '3', '4']),
} as const;

export interface AccessCaller {
  userType: UserType;
  /** Activation state of the account: 0 inactive, 1 active. */
  activated: 0 | 1;
  programRole: number;
}

/** Why a signed-in caller is refused by a declaration, or undefined when it may call. */
export type AccessRefusal = 'wrongType' | 'notActivated' | 'wrongDeployment' | 'wrongProgramRole';

export function userRefusal(
  access: UserAccess,
  caller: AccessCaller,
  special: boolean,
): AccessRefusal | undefined {
  if (special && access.deployment === 'standard') return 'wrongDeployment';
  if (!access.types.includes(caller.userType)) return 'wrongType';
  if (access.activated && caller.userType === '2' && caller.activated !== 1) return 'notActivated';
  if (access.programRoles && !access.programRoles.includes(caller.programRole)) return 'wrongProgramRole';
  return undefined;
}

/**
 * Whether a signed-in user may make a call: the console shows an action only when this holds,
 * so the declaration stays the one place that says who may do what.
 */
export function mayCall(access: Access, caller: AccessCaller, special: boolean): boolean {
  return access.kind === 'user' && userRefusal(access, caller, special) === undefined;
}

// ---------- API tokens ----------

/**
 * What an API token may do (issue 28). The scopes are ordered: `operate` includes `read`,
 * `manage` includes both. No scope reaches accounts, passwords, sessions or tokens.
 * - read: every read a user call offers its user (lists, details, reports);
 * - operate: also what acts on panels (commands, device edits, labels, notifications);
 * - manage: also rollouts and settings (OTA, APK, programs, saved settings, catalogs, uploads).
 */
export const TOKEN_SCOPES = ['read', 'operate', 'manage'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The least scope a call needs of a token, or `never` (a token never makes it). */
export type TokenNeed = TokenScope | 'never';

/**
 * Areas (call tags) a token never reaches: accounts, passwords, sessions and tokens themselves,
 * and the console's live event stream, which lives and ends with a console session.
 */
export const TOKENLESS_TAGS: readonly string[] = ['accounts', 'session', 'api tokens', 'live'];
/** Areas whose writes act on panels: a token needs `operate` for them; other writes need `manage`. */
export const OPERATE_TAGS: readonly string[] = [
  'devices',
  'device',
  'device detail',
  'labels',
  'commands',
  'notifications',
  'materials',
  'screen time',
  'logs',
];

/**
 * The scope a call needs of a token. A call may declare it next to its access (`tokens` in
 * defineCall); otherwise it follows from the call: only user calls take tokens (anonymous calls
 * need none, panels present their own credentials); accounts and sessions never; reads (GET,
 * HEAD) `read`; other writes `operate` in the panel areas above and `manage` elsewhere.
 */
export function tokenNeedOf(call: {
  method: string;
  tag: string;
  access: Access;
  tokens?: TokenNeed | undefined;
}): TokenNeed {
  if (call.access.kind !== 'user') return 'never';
  if (call.tokens) return call.tokens;
  if (TOKENLESS_TAGS.includes(call.tag)) return 'never';
  if (call.method === 'GET' || call.method === 'HEAD') return 'read';
  return OPERATE_TAGS.includes(call.tag) ? 'operate' : 'manage';
}

/** Whether a token of `scope` may make a call that needs `need`. */
export function tokenAdmits(need: TokenNeed, scope: TokenScope): boolean {
  return need !== 'never' && TOKEN_SCOPES.indexOf(scope) >= TOKEN_SCOPES.indexOf(need);
}

/** The scopes that may make a call that needs `need` (the OpenAPI document's `x-token-scopes`). */
export const scopesAdmitting = (need: TokenNeed): TokenScope[] =>
  TOKEN_SCOPES.filter((scope) => tokenAdmits(need, scope));

/** A short human-readable form of a declaration, for the OpenAPI document and test output. */
export function describeAccess(access: Access): string {
  if (access.kind !== 'user') return access.kind;
  const parts = [`user types ${access.types.join(', ')}`];
  if (access.activated) parts.push('activated');
  if (access.deployment === 'standard') parts.push('not on the special deployment');
  if (access.programRoles) parts.push(`program roles ${access.programRoles.join(', ')}`);
  return parts.join('; ');
}
