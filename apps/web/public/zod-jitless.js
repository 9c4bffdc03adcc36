// Zod builds its object parsers with `new Function` unless told not to, and it probes for that
// when the first schema is made, which is while the bundle's modules load. The server's
// Content-Security-Policy has no 'unsafe-eval', so the probe alone is a reported violation.
// This classic script runs before the console's module scripts (those are deferred), so Zod
// finds `jitless` in its shared configuration object before any schema exists.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
