import { startClusterTaskShape, TaskShape } from '../utils/task-shapes.js';
import { uniqueNamespace } from '../utils/test-node.js';
import { submitGroupCases } from './task-submit-group-cases.js';

describe('POST /api/tasks under concurrency (grouped writes), cluster shape (MariaDB + Redis)', () => {
  let shape: TaskShape;

  beforeAll(async () => {
    shape = await startClusterTaskShape(uniqueNamespace('e2e-group'));
  }, 60_000);

  afterAll(async () => shape?.close());

  submitGroupCases(() => shape, true);
});
