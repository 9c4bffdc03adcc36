import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import { okBase } from '../envelope.js';
import { requiredText } from '../rules.js';
import { CERTIFICATE_MAX_CHARS } from '../device/orders.js';

// The certificate page (spec 2 sections 2 and 7, view `certificate` of user type 1): the X.509
// certificate, with its chain, that the panels of a distributor's customers trust for the
// platform's endpoints (docs/ARCHITECTURE.md "Platform certificate").

const tag = 'certificate';

/** The certificate page is a distributor's (user type 1, spec 1 menu); its customers' panels receive it. */
export const certificateManagers = users(['1']);

/** A warning is shown this many days before the certificate (or one of its chain) expires. */
export const CERTIFICATE_WARN_DAYS = 30;
export const CERTIFICATE_NAME_MAX_WIDTH = 64;
/** Certificates in one bundle: the leaf and its intermediates (and a root, if given). */
export const CERTIFICATE_CHAIN_MAX = 10;

export const certificateInfo = z.object({
  certificateName: z.string(),
  /** The leaf's subject and issuer, as "CN=..., O=..." */
  subject: z.string(),
  issuer: z.string(),
  /** The latest start and earliest end of validity over the whole chain (epoch ms). */
  validFrom: z.number(),
  validTo: z.number(),
  /** SHA-256 of the chain's DER bytes, upper-case hex in pairs (for one certificate: its SHA-256 fingerprint). */
  fingerprint: z.string(),
  chainLength: z.number().int(),
  uploadTime: z.number(),
  uploadedBy: z.string(),
  /** Panels of the distributor's customers (enabled) and how many of them reported holding this certificate. */
  panelCount: z.number().int(),
  panelsHolding: z.number().int(),
});
export type CertificateInfo = z.infer<typeof certificateInfo>;

export const queryCertificate = defineCall({
  method: 'GET',
  path: '/sendData/queryCertificate',
  summary:
    "The certificate the distributor's customers' panels trust: its name (null while none was uploaded) and details",
  tag,
  access: certificateManagers,
  params: z.object({}),
  reply: okBase.extend({ certificateName: z.string().nullable(), dataObject: certificateInfo.nullable() }),
});

export const updateCertificate = defineCall({
  method: 'POST',
  path: '/sendData/updateCertificate',
  summary:
    'Replace the certificate: certificate holds PEM text (the certificate first, then its chain; never a private key), checked to parse, be valid now and chain up; it goes to the panels at once and to the others when they connect',
  tag,
  access: certificateManagers,
  params: z.object({
    certificateName: requiredText(
      'certificate.nameNull',
      CERTIFICATE_NAME_MAX_WIDTH,
      'certificate.nameTooLong',
    ),
    certificate: z
      .string({ error: 'certificate.empty' })
      .trim()
      .min(1, { error: 'certificate.empty' })
      .max(CERTIFICATE_MAX_CHARS, { error: 'certificate.tooLarge' }),
  }),
  reply: okBase.extend({ certificateName: z.string(), dataObject: certificateInfo }),
});
