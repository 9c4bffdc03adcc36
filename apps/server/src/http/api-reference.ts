import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Where the browsable API reference lives; the OpenAPI document it reads is `/api-docs`. */
export const API_REFERENCE_PATH = '/api-reference';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>PanelFleet API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/start.js"></script>
</body>
</html>
`;

// A file of its own, not an inline script: the Content-Security-Policy allows only the server's files.
const START = `window.ui = SwaggerUIBundle({
  url: '/api-docs',
  dom_id: '#api-reference',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  filter: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
});
`;

/**
 * The browsable API reference (issue 28 item 2): Swagger UI, kept in the product as the
 * `swagger-ui-dist` package and served from memory (no CDN), rendering the OpenAPI document the
 * server builds from the contract: each call's access, token scopes, parameters and replies.
 */
export function installApiReference(app: FastifyInstance) {
  const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files: Record<string, { type: string; body: Buffer }> = {
    'swagger-ui.css': {
      type: 'text/css; charset=utf-8',
      body: fs.readFileSync(path.join(dist, 'swagger-ui.css')),
    },
    'swagger-ui-bundle.js': {
      type: 'text/javascript; charset=utf-8',
      body: fs.readFileSync(path.join(dist, 'swagger-ui-bundle.js')),
    },
    'start.js': { type: 'text/javascript; charset=utf-8', body: Buffer.from(START) },
  };
  app.get(API_REFERENCE_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  for (const [name, file] of Object.entries(files))
    app.get(`${API_REFERENCE_PATH}/${name}`, async (_request, reply) =>
      reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body),
    );
}
