// `tickwheel/testing`: test a handler without a product behind it (README "Write your own handlers"): a fake
// JobContext that records what the handler did, and a harness that stops a run and resumes it from its checkpoint.
// It loads the handler contract only, no store or driver.
export * from './fake-job-context.js';
export * from './stop-and-resume.js';
