import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply, okBase } from '../envelope.js';
import { binary, id } from './accounts-fields.js';

/**
 * Issue 29 items 2, 3, 5: the second factor (TOTP, RFC 6238, with recovery codes), the sign-in's
 * second step, the sessions a user can see, and what administrators do about both.
 *
 * Sign-in is made of steps: the first (the password; an identity provider later) answers
 * `nextStep`: `done` (the session started), `secondFactor` (a code is asked) or `enrol` (the
 * organisation requires a second factor the user has not set up). Between the steps the browser
 * holds a short-lived step cookie, never a session.
 */
const tag = 'identity';

export const NEXT_STEPS = ['done', 'secondFactor', 'enrol'] as const;
export type NextStep = (typeof NEXT_STEPS)[number];

/** A 6-digit code of the authenticator app, or a recovery code (xxxxx-xxxxx). */
export const secondFactorCode = z
  .string({ error: 'secondFactor.codeNull' })
  .trim()
  .min(1, { error: 'secondFactor.codeNull' })
  .max(16, { error: 'secondFactor.codeWrong' });

/** What an authenticator app needs: the secret as text, its otpauth:// URL and that URL as a QR code (PNG data URL). */
export const enrolment = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCode: z.string(),
});

const signedIn = okBase.extend({ program_role: z.string(), nextStep: z.enum(NEXT_STEPS) });

export const signInCode = defineCall({
  method: 'POST',
  path: '/platform/login/secondFactor',
  summary:
    'The second step of a sign-in: the authenticator code or a recovery code (the step cookie names the sign-in)',
  tag,
  access: callers.anyone,
  params: z.object({ code: secondFactorCode }),
  reply: signedIn,
});

export const signInEnrolStart = defineCall({
  method: 'POST',
  path: '/platform/login/secondFactor/enrol',
  summary:
    'A sign-in whose organisation requires a second factor: a new secret to enrol (the step cookie names the sign-in)',
  tag,
  access: callers.anyone,
  params: z.object({}),
  reply: itemReply(enrolment),
});

export const signInEnrolConfirm = defineCall({
  method: 'POST',
  path: '/platform/login/secondFactor/confirm',
  summary:
    'Confirms the enrolment of a sign-in with a code; the session starts and the recovery codes are shown once',
  tag,
  access: callers.anyone,
  params: z.object({ code: secondFactorCode }),
  reply: signedIn.extend({ recoveryCodes: z.array(z.string()) }),
});

export const secondFactorState = z.object({
  enrolled: binary,
  /** 1: the user's organisation requires it (it cannot be turned off). */
  required: binary,
  recoveryLeft: z.number().int(),
});

export const getSecondFactor = defineCall({
  method: 'GET',
  path: '/platform/personal/secondFactor',
  summary: 'Whether the signed-in user has a second factor, and whether the organisation requires one',
  tag,
  access: callers.self,
  params: z.object({}),
  reply: itemReply(secondFactorState),
});

export const startSecondFactor = defineCall({
  method: 'POST',
  path: '/platform/personal/secondFactor/start',
  summary: 'A new secret to enrol; it counts once confirmed with a code',
  tag,
  access: callers.self,
  params: z.object({}),
  reply: itemReply(enrolment),
});

export const confirmSecondFactor = defineCall({
  method: 'POST',
  path: '/platform/personal/secondFactor/confirm',
  summary: 'Confirms the enrolment with a code; answers ten single-use recovery codes, shown this once',
  tag,
  access: callers.self,
  params: z.object({ code: secondFactorCode }),
  reply: itemReply(z.object({ recoveryCodes: z.array(z.string()) })),
});

export const removeSecondFactor = defineCall({
  method: 'POST',
  path: '/platform/personal/secondFactor/remove',
  summary: 'Turns the second factor off with a current code (refused while the organisation requires it)',
  tag,
  access: callers.self,
  params: z.object({ code: secondFactorCode }),
  reply: emptyReply,
});

export const SIGN_IN_METHODS = ['password', 'password+totp', 'password+recovery', 'token', 'oidc'] as const;

export const sessionRow = z.object({
  ref: z.string(),
  /** The browser and system, as read from the user agent. */
  browser: z.string(),
  ip: z.string(),
  startedAt: z.number(),
  lastSeenAt: z.number(),
  method: z.string(),
  current: binary,
});
export type SessionRow = z.infer<typeof sessionRow>;

export const listSessions = defineCall({
  method: 'GET',
  path: '/platform/personal/sessions',
  summary: 'The signed-in user’s live sessions, newest first',
  tag,
  access: callers.self,
  params: z.object({}),
  reply: listReply(sessionRow),
});

export const endSession = defineCall({
  method: 'POST',
  path: '/platform/personal/sessions/end',
  summary: 'Ends one of the user’s sessions (its live streams close)',
  tag,
  access: callers.self,
  params: z.object({ ref: z.string().trim().min(1).max(32) }),
  reply: emptyReply,
});

export const endOtherSessions = defineCall({
  method: 'POST',
  path: '/platform/personal/sessions/endOthers',
  summary: 'Ends every session of the user but this one',
  tag,
  access: callers.self,
  params: z.object({}),
  reply: emptyReply,
});

/** Whoever manages an organisation's console users (as `userResetPassword`). */
const userManagers = users(['0', '1', '2', '3']);

export const resetUserSecondFactor = defineCall({
  method: 'POST',
  path: '/platform/user/resetSecondFactor',
  summary: 'Removes a console user’s second factor and recovery codes and ends the user’s sessions (logged)',
  tag,
  access: userManagers,
  params: z.object({ userId: id }),
  reply: emptyReply,
});

export const endUserSessions = defineCall({
  method: 'POST',
  path: '/platform/user/endSessions',
  summary: 'Ends every session of a console user (logged)',
  tag,
  access: userManagers,
  params: z.object({ userId: id }),
  reply: emptyReply,
});

/** Who sets whether their own organisation's users must use a second factor: the platform, a distributor, a company account. */
const organisationAdmins = users(['0', '1', '2']);

export const getSecondFactorPolicy = defineCall({
  method: 'GET',
  path: '/platform/organisation/secondFactor',
  summary: 'Whether the caller’s organisation requires a second factor of its users',
  tag,
  access: organisationAdmins,
  params: z.object({}),
  reply: itemReply(z.object({ required: binary })),
});

export const setSecondFactorPolicy = defineCall({
  method: 'POST',
  path: '/platform/organisation/secondFactor',
  summary: 'Requires (1) or not (0) a second factor of the caller’s organisation’s users (logged)',
  tag,
  access: organisationAdmins,
  params: z.object({ required: binary }),
  reply: emptyReply,
});
