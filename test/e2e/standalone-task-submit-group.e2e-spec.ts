import { startStandaloneTaskShape, TaskShape } from '../utils/task-shapes.js';
import { submitGroupCases } from './task-submit-group-cases.js';

describe('POST /api/tasks under concurrency (grouped writes), standalone shape (SQLite + in-process coordination)', () => {
  let shape: TaskShape;

  beforeAll(async () => {
    shape = await startStandaloneTaskShape();
  });

  afterAll(async () => shape?.close());

  submitGroupCases(() => shape, false);
});
