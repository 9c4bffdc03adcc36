import crypto from 'node:crypto';

/** 256 random bits, URL-safe: session and captcha cookies. */
export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256, so a database read cannot replay a cookie. */
export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
