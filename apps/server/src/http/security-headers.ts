import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  baseUrl: string;
  /** The page the net-speed view embeds (NET_SPEED_URL); empty when none. */
  netSpeedUrl: string;
}

/** The origin a framed page comes from: an absolute URL's own, a relative one is the console's. */
function frameSource(netSpeedUrl: string): string {
  if (!netSpeedUrl) return "'none'";
  if (!URL.canParse(netSpeedUrl)) return "'self'";
  const url = new URL(netSpeedUrl);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : "'none'";
}

/**
 * Protective headers on every reply, with a Content-Security-Policy the console obeys: scripts
 * only from the console's own files (no inline script, no eval). Styles also allow
 * 'unsafe-inline' because Ant Design (cssinjs) and other components write <style> elements and
 * style attributes at run time; a nonce would have to be put into index.html per request and
 * would still not cover the components that do not take one.
 */
export async function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const base = new URL(options.baseUrl);
  const https = base.protocol === 'https:';
  const webSocket = `${https ? 'wss' : 'ws'}://${base.host}`;
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        // 'self' covers same-host WebSockets in current browsers; BASE_URL's is named for the others.
        connectSrc: ["'self'", webSocket],
        frameSrc: [frameSource(options.netSpeedUrl)],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Over plain http (a LAN deployment) upgrading would send the console's requests nowhere.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    // HSTS only where the console is served over https; a plain-http deployment must not pin it.
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false } : false,
  });
}
