import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { PassLoop } from './pass-loop.js';

const settle = () => new Promise((r) => setImmediate(r));

describe('PassLoop', () => {
  it('should run again at once while a pass says more waits, else after its period, and after an error', async () => {
    const clock = new FakeClock(0);
    const at: number[] = [];
    const answers: Array<boolean | Error> = [true, true, false, new Error('db down'), false];
    const errors: string[] = [];
    const loop = new PassLoop(
      clock,
      1000,
      async () => {
        at.push(clock.now());
        const a = answers.shift();
        if (a instanceof Error) throw a;
        return a;
      },
      (e) => errors.push(e.message),
    );
    loop.start();
    for (const t of [0, 0, 0, 0, 1000, 2000, 3000]) {
      clock.advanceTo(t);
      await settle();
    }
    await loop.stop();
    expect(at).toEqual([0, 0, 0, 1000, 2000, 3000]);
    expect(errors).toEqual(['db down']);
  });
});
