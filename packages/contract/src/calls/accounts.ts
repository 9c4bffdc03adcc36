import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { email, md5Password, optionalText, pageParams, phone, requiredText } from '../rules.js';
import { MAX_RECORD_ID } from '../ids.js';
import { binary, id, millis, programRole, tag } from './accounts-fields.js';

/**
 * Account calls of spec 1: registration, activation, password recovery, personal center,
 * console users, customers and their quota, salespeople, licenses. Paths the spec does not
 * show are chosen in the same style and recorded here.
 */

/**
 * User names: letters of any script (Chinese included), digits and . _ @ -, no spaces; at most
 * 32 width units (a CJK character counts 2), as elsewhere.
 */
export const USER_NAME = /^[\p{L}\p{M}\p{N}_.@-]+$/u;

export * from './accounts-platform.js';

// ---------- registration and activation ----------

export const salespersonOption = z.object({ id: z.number().int(), name: z.string() });

export const selectSale = defineCall({
  method: 'GET',
  path: '/platform/license/selectSale',
  tag,
  access: callers.anyone,
  summary: 'Salespeople on the job, for the register form',
  params: z.object({}),
  reply: listReply(salespersonOption),
});

export const register = defineCall({
  method: 'POST',
  path: '/platform/register',
  tag,
  access: callers.anyone,
  summary:
    'Register a company with a type-0 license; creates an inactive type-2 user and mails the activation link',
  params: z
    .object({
      companyName: requiredText('register.contentNull', 64),
      saleName: z.coerce
        .number({ error: 'register.contentNull' })
        .int()
        .positive({ error: 'register.contentNull' })
        .max(MAX_RECORD_ID, { error: 'register.salespersonUnknown' }),
      license: requiredText('register.contentNull', 64),
      userName: requiredText('register.contentNull', 32).refine((v) => USER_NAME.test(v), {
        error: 'register.userNameRule',
      }),
      phone: phone('register.contentNull'),
      email: email('register.contentNull'),
      userPass: md5Password('register.contentNull'),
      secondPassword: md5Password('register.contentNull'),
    })
    .refine((v) => v.userPass === v.secondPassword, {
      error: 'register.difference',
      path: ['secondPassword'],
    }),
  reply: emptyReply,
});

export const userActivation = defineCall({
  method: 'GET',
  path: '/platform/userActivation',
  tag,
  access: callers.anyone,
  summary: 'Follow the activation link: userName, time and the random token',
  params: z.object({
    userName: requiredText('activation.invalid', 64),
    time: z.string().max(20),
    token: requiredText('activation.invalid', 64),
  }),
  reply: emptyReply,
});

export const sendActivationEmail = defineCall({
  method: 'GET',
  path: '/platform/user/sendActivationEmail',
  tag,
  access: users(['2'], { activated: false }),
  summary: 'Send the activation mail again to the signed-in inactive user',
  params: z.object({}),
  reply: emptyReply,
});

// ---------- password recovery ----------

export const forgetPassword = defineCall({
  method: 'POST',
  path: '/platform/forgetPassword',
  tag,
  access: callers.anyone,
  summary: 'Mail a reset link; an unknown address gets the same reply',
  params: z.object({ email: email('findPassword.contentNull') }),
  reply: emptyReply,
});

const resetLink = {
  email: email('forgetPsw.invalidLink'),
  uuid: requiredText('forgetPsw.invalidLink', 64),
  token: requiredText('forgetPsw.invalidLink', 64),
};

export const verificationEmail = defineCall({
  method: 'GET',
  path: '/platform/verificationEmail',
  tag,
  access: callers.anyone,
  summary: 'Check a reset link before showing the form',
  params: z.object(resetLink),
  reply: emptyReply,
});

export const resetPassword = defineCall({
  method: 'POST',
  path: '/platform/resetPassword',
  tag,
  access: callers.anyone,
  summary: 'Set a new password from a reset link; ends the user’s sessions',
  params: z
    .object({
      ...resetLink,
      password: md5Password('forgetPsw.emptyPsw'),
      secondPassword: md5Password('forgetPsw.emptyPsw'),
    })
    .refine((v) => v.password === v.secondPassword, {
      error: 'forgetPsw.difference',
      path: ['secondPassword'],
    }),
  reply: emptyReply,
});

// ---------- personal center ----------

export const updatePersonal = defineCall({
  method: 'POST',
  path: '/platform/user/updatePersonal',
  tag,
  access: callers.self,
  summary: 'Change the signed-in user’s e-mail and phone',
  params: z.object({ userId: id, phone: phone(), email: email() }),
  reply: emptyReply,
});

export const uploadAvatar = defineCall({
  method: 'POST',
  path: '/platform/user/uploadAvatar',
  tag,
  access: callers.self,
  summary: 'Multipart field `file`: the cropped 150x150 avatar (gif, jpg, jpeg, png or bmp; stored as jpg)',
  params: z.object({}),
  reply: itemReply(z.object({ avatar: z.string() })),
});

export const avatarImage = defineCall({
  method: 'GET',
  path: '/platform/user/avatar',
  tag,
  access: callers.session,
  summary: 'The signed-in user’s avatar image',
  params: z.object({ v: z.string().max(32).optional() }),
  reply: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  produces: 'image/jpeg',
});

export const updatePassword = defineCall({
  method: 'POST',
  path: '/platform/user/updatePassword',
  tag,
  access: callers.self,
  summary: 'Change the signed-in user’s password (old, new, confirm; MD5); other sessions end',
  params: z
    .object({
      userPass: md5Password('modifyPsw.emptyPsw'),
      userNewPass: md5Password('modifyPsw.emptyPsw'),
      userNewPass1: md5Password('modifyPsw.emptyPsw'),
    })
    .refine((v) => v.userNewPass === v.userNewPass1, {
      error: 'modifyPsw.differPsw',
      path: ['userNewPass1'],
    }),
  reply: emptyReply,
});

// ---------- console users (a customer's own users) ----------

export const consoleUser = z.object({
  userId: z.number().int(),
  userName: z.string(),
  userType: z.string(),
  isOnline: binary,
  phone: z.string(),
  email: z.string(),
  state: binary,
  role: z.number().int(),
  remark: z.string(),
  validBeginTime: z.number().nullable(),
  validEndTime: z.number().nullable(),
});

export const userList = defineCall({
  method: 'GET',
  path: '/platform/user/user_list',
  tag,
  access: callers.companyAccount,
  summary: 'The caller’s company users, paged, optionally by user name',
  params: pageParams.extend({ userName: optionalText(64) }),
  reply: listReply(consoleUser),
});

export const insertUser = defineCall({
  method: 'POST',
  path: '/platform/user/onlyInsertDeviceUserForm',
  tag,
  access: callers.companyAccount,
  summary: 'Add a console user (type 3 or 4) within the company’s user quota',
  params: z.object({
    userName: requiredText('notNull', 32).refine((v) => USER_NAME.test(v), {
      error: 'register.userNameRule',
    }),
    password: md5Password('notNull'),
    phone: phone('notNull'),
    email: email('notNull'),
    state: binary.default(1),
    remark: optionalText(200),
    role: programRole.default(0),
    userType: z.enum(['3', '4']).default('4'),
  }),
  reply: emptyReply,
});

export const updateUser = defineCall({
  method: 'POST',
  path: '/platform/user/updateUserForm',
  tag,
  access: callers.companyAccount,
  summary: 'Change a console user’s state, role, remark and valid window',
  params: z
    .object({
      userId: id,
      state: binary,
      remark: optionalText(200),
      role: programRole.optional(),
      validBeginTime: millis.optional().or(z.literal('').transform(() => undefined)),
      validEndTime: millis.optional().or(z.literal('').transform(() => undefined)),
    })
    .refine(
      (v) =>
        v.validBeginTime === undefined || v.validEndTime === undefined || v.validBeginTime < v.validEndTime,
      {
        error: 'user.validWindow',
        path: ['validEndTime'],
      },
    ),
  reply: emptyReply,
});

export const deleteUser = defineCall({
  method: 'POST',
  path: '/platform/user/deleteByUserId',
  tag,
  access: callers.companyAccount,
  summary: 'Delete a console user',
  params: z.object({ userId: id }),
  reply: emptyReply,
});

export const userResetPassword = defineCall({
  method: 'POST',
  path: '/platform/user/userResetPassword',
  tag,
  access: users(['0', '1', '2', '3']),
  summary: 'Mail the user a reset link and end the user’s sessions',
  params: z.object({ userId: id }),
  reply: emptyReply,
});

// ---------- customers and their quota ----------

export const customer = z.object({
  userId: z.number().int(),
  customerId: z.number().int(),
  userName: z.string(),
  companyName: z.string(),
  isOnline: binary,
  phone: z.string(),
  email: z.string(),
  state: binary,
});

export const customerList = defineCall({
  method: 'GET',
  path: '/platform/customer/list',
  tag,
  access: callers.customerManagers,
  summary: 'Customer accounts under the caller’s organisation, paged',
  params: pageParams.extend({ userName: optionalText(64) }),
  reply: listReply(customer),
});

export const updateCustomer = defineCall({
  method: 'POST',
  path: '/platform/customer/update',
  tag,
  access: callers.customerManagers,
  summary: 'Enable or disable a customer account',
  params: z.object({ userId: id, state: binary }),
  reply: emptyReply,
});

export const getQuota = defineCall({
  method: 'POST',
  path: '/platform/customer/getUserNumber',
  tag,
  access: callers.customerManagers,
  summary: 'A customer’s user quota',
  params: z.object({ customerId: id }),
  reply: itemReply(z.object({ customerUserNumberId: z.number().int(), userNumber: z.number().int() })),
});

/** A quota has at most this many digits (999,999 users). */
export const QUOTA_DIGITS = 6;

export const updateQuota = defineCall({
  method: 'POST',
  path: '/platform/customer/updateUserNumber',
  tag,
  access: callers.quotaSetters,
  summary: 'Set a customer’s user quota (digits only)',
  params: z.object({
    customerUserNumberId: id,
    userNumber: z
      .string()
      .trim()
      .regex(/^\d+$/, { error: 'customerManage.requireNumbers' })
      .refine((v) => v.replace(/^0+(?=\d)/, '').length <= QUOTA_DIGITS, { error: 'customerManage.quotaMax' })
      .transform(Number),
  }),
  reply: emptyReply,
});

export type ConsoleUser = z.infer<typeof consoleUser>;
export type Customer = z.infer<typeof customer>;
