import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../../src/bootstrap.js';
import { standaloneEnv, startNode } from '../utils/test-node.js';

describe('openapi/openapi.json', () => {
  it('should match the code (run `npm run openapi:sync` after changing the API)', async () => {
    const node = await startNode(standaloneEnv({ LOG_LEVEL: 'error' }));
    try {
      const fromCode = JSON.stringify(buildOpenApiDocument(node.app), null, 2) + '\n';
      expect(JSON.parse(readFileSync('openapi/openapi.json', 'utf8'))).toEqual(JSON.parse(fromCode));
      const res = await fetch(`${node.url}/docs/openapi.json`);
      expect(res.status).toBe(200);
      expect(Object.keys(((await res.json()) as { paths: object }).paths)).toEqual(
        expect.arrayContaining(['/api/tasks', '/api/tasks/{requestId}', '/api/jobs', '/api/nodes', '/metrics']),
      );
      // The page signs Try it out (test/e2e/swagger-ui.e2e-spec.ts drives it in a browser).
      expect(await (await fetch(`${node.url}/docs`)).text()).toContain('twSignRequest');
      expect(await (await fetch(`${node.url}/docs/swagger-ui-init.js`)).text()).toMatch(
        /requestInterceptor.*twSignRequest/,
      );
    } finally {
      await node.close();
    }
  });
});
