export { TimerTaskEntry } from './timer-task-entry.js';
export { TimerTaskList } from './timer-task-list.js';
export { BucketQueue } from './bucket-queue.js';
export { TimingWheel } from './timing-wheel.js';
export { WheelTimer } from './wheel-timer.js';
export type { Cancel, WheelTimerOptions } from './wheel-timer.js';
