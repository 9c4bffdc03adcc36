import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply } from '../envelope.js';
import { apkManagers } from './apk.js';

/**
 * The plain APK file calls and the APK send that spec 3 section 7 leaves to documents 1 and 2,
 * which do not describe them. Each answers with a refusal (410, `fail`) in the caller's language
 * naming the call that does the work here, instead of a 404 that tells nothing.
 */

const tag = 'apk';

/** The call a replaced one answers with: its path and the call to use instead. */
export const REPLACED_APK_CALLS = {
  '/apkFile/apkFileUpload': '/apkUpgrade/uploadApkPackage (multipart file, mark, remark)',
  '/apkFile/delete': '/apkUpgrade/deleteApkUpgrade (apkVersionId)',
  '/apkFile/download':
    '/apkUpgrade/apkDetails (versions) with the install calls; panels fetch APKs through signed links',
  '/sendData/updateApk': '/apkUpgrade/install (apkVersionId, deviceIds or tagIds)',
} as const;

const replaced = (method: 'GET' | 'POST', path: keyof typeof REPLACED_APK_CALLS, access = apkManagers) =>
  defineCall({
    method,
    path,
    summary: `Not offered: refused (410) naming the call to use, ${REPLACED_APK_CALLS[path]}`,
    tag,
    access,
    params: z.looseObject({}),
    reply: emptyReply,
  });

export const apkFileUpload = replaced('POST', '/apkFile/apkFileUpload');
export const apkFileDelete = replaced('POST', '/apkFile/delete');
export const apkFileDownload = replaced('GET', '/apkFile/download');
export const sendUpdateApk = replaced('POST', '/sendData/updateApk', callers.deviceOperators);
