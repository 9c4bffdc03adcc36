import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, okBase } from '../envelope.js';
import { CAPTCHA_LENGTH, md5Password, requiredText } from '../rules.js';
import { USER_TYPES } from '../menus.js';

const tag = 'session';

export const captchaImage = defineCall({
  method: 'GET',
  path: '/kaptcha/defaultKaptcha',
  summary: 'A new single-use captcha image bound to this browser (cookie), valid 5 minutes',
  tag,
  access: callers.anyone,
  params: z.object({ date: z.string().max(32).optional() }),
  reply: z.string(),
  produces: 'image/svg+xml',
});

/** The captcha answer the sign-in form asks for while the captcha is on (runtime config `captcha`). */
export const captchaAnswer = z
  .string({ error: 'login.verificationNull' })
  .trim()
  .min(1, { error: 'login.verificationNull' })
  .max(CAPTCHA_LENGTH, { error: 'login.captchaWrong' });

export const login = defineCall({
  method: 'POST',
  path: '/platform/login',
  summary:
    'Sign in with user name, MD5 password and the captcha answer (required unless the server runs with CAPTCHA=off)',
  tag,
  access: callers.anyone,
  params: z.object({
    username: requiredText('login.nameNull', 64),
    password: md5Password('login.passwordNull'),
    tryCode: captchaAnswer.optional(),
  }),
  // nextStep: `done`, or the second step the sign-in waits for (calls/identity.ts).
  reply: okBase.extend({ program_role: z.string(), nextStep: z.enum(['done', 'secondFactor', 'enrol']) }),
});

export const sessionUser = z.object({
  userType: z.enum(USER_TYPES),
  userName: z.string(),
  state: z.union([z.literal(0), z.literal(1)]),
});

export const userType = defineCall({
  method: 'GET',
  path: '/platform/user/select/userType',
  summary: 'The signed-in user: type, name and activation state',
  tag,
  access: callers.session,
  params: z.object({}),
  reply: okBase.extend(sessionUser.shape),
});

export const personalInfo = z.object({
  userId: z.number().int(),
  userName: z.string(),
  companyName: z.string(),
  phone: z.string(),
  email: z.string(),
  avatar: z.string(),
  state: z.union([z.literal(0), z.literal(1)]),
});

export const selectUser = defineCall({
  method: 'GET',
  path: '/platform/user/select',
  summary: 'Personal information of the signed-in user',
  tag,
  access: callers.session,
  params: z.object({}),
  reply: itemReply(personalInfo),
});

export const logout = defineCall({
  method: 'POST',
  path: '/platform/loginOut',
  summary: 'End the session',
  tag,
  access: callers.anyone,
  params: z.object({}),
  reply: emptyReply,
});

export const runtimeConfig = z.object({
  /** 2 shows register; 3 hides forgot password. */
  serverLevel: z.number().int(),
  /** Role flag 1: the special-user deployment (OTA staff). */
  roleFlag: z.union([z.literal(0), z.literal(1)]),
  title: z.string(),
  netSpeedUrl: z.string(),
  /** Whether sign-in asks for a captcha (false when the server runs with CAPTCHA=off). */
  captcha: z.boolean(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfig>;

export const getRuntimeConfig = defineCall({
  method: 'GET',
  path: '/platform/config/runtime',
  summary: 'Runtime configuration of the console',
  tag,
  access: callers.anyone,
  params: z.object({}),
  reply: itemReply(runtimeConfig),
});
