export { Tracing } from './tracing.js';
export { type EndedSpan } from './span-exporter.js';
export { rowSpan, type TracedRow } from './row-span.js';
export { TracingModule } from './tracing.module.js';
