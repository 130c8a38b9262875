import { BucketQueue } from './bucket-queue.js';
import { TimerTaskList } from './timer-task-list.js';

function bucketAt(expirationMs: number): TimerTaskList<number> {
  const bucket = new TimerTaskList<number>();
  bucket.setExpiration(expirationMs);
  return bucket;
}

describe(BucketQueue.name, () => {
  let sut: BucketQueue<number>;

  beforeEach(() => {
    sut = new BucketQueue<number>();
  });

  it('should return undefined when empty', () => {
    expect(sut.peek()).toBeUndefined();
    expect(sut.pop()).toBeUndefined();
    expect(sut.size).toBe(0);
  });

  it('should pop buckets in expiration order when pushed in any order', () => {
    let seed = 42;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const expirations = Array.from({ length: 500 }, () => Math.floor(rand() * 10_000));
    expirations.forEach((ms) => sut.push(bucketAt(ms)));
    const popped: number[] = [];
    while (sut.size > 0) {
      expect(sut.peek()).toBeDefined();
      popped.push(sut.pop()!.getExpiration());
    }
    expect(popped).toEqual([...expirations].sort((a, b) => a - b));
  });

  it('should interleave pushes and pops when new earlier buckets arrive', () => {
    [50, 30, 40].forEach((ms) => sut.push(bucketAt(ms)));
    expect(sut.pop()!.getExpiration()).toBe(30);
    sut.push(bucketAt(10));
    expect(sut.peek()!.getExpiration()).toBe(10);
    expect([sut.pop(), sut.pop(), sut.pop()].map((b) => b!.getExpiration())).toEqual([10, 40, 50]);
  });
});
