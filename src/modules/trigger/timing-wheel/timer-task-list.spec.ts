import { TimerTaskEntry } from './timer-task-entry.js';
import { TimerTaskList } from './timer-task-list.js';

function ids(list: TimerTaskList<number>): string[] {
  const out: string[] = [];
  list.forEach((e) => out.push(e.id));
  return out;
}

describe(TimerTaskList.name, () => {
  let sut: TimerTaskList<number>;
  const entry = (id: string, exp = 1000): TimerTaskEntry<number> => new TimerTaskEntry(id, exp, 0);

  beforeEach(() => {
    sut = new TimerTaskList<number>();
  });

  it('should keep insertion order and count when entries are added', () => {
    ['a', 'b', 'c'].forEach((id) => sut.add(entry(id)));
    expect(ids(sut)).toEqual(['a', 'b', 'c']);
    expect(sut.size).toBe(3);
    expect(sut.isEmpty).toBe(false);
  });

  it('should unlink head, middle and tail when entries are removed', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => entry(id));
    [a, b, c, d].forEach((e) => sut.add(e));
    expect(sut.remove(b)).toBe(true);
    expect(ids(sut)).toEqual(['a', 'c', 'd']);
    expect(a.remove()).toBe(true);
    expect(d.remove()).toBe(true);
    expect(ids(sut)).toEqual(['c']);
    expect(sut.remove(c)).toBe(true);
    expect(sut.isEmpty).toBe(true);
    expect(ids(sut)).toEqual([]);
    expect(c.list).toBeNull();
  });

  it('should return false when the entry is in no list or in another list', () => {
    const other = new TimerTaskList<number>();
    const e = entry('x');
    expect(sut.remove(e)).toBe(false);
    expect(e.remove()).toBe(false);
    other.add(e);
    expect(sut.remove(e)).toBe(false);
    expect(other.size).toBe(1);
  });

  it('should move the entry when it is added to another list', () => {
    const other = new TimerTaskList<number>();
    const e = entry('x');
    sut.add(e);
    other.add(e);
    expect(sut.size).toBe(0);
    expect(ids(other)).toEqual(['x']);
    expect(e.list).toBe(other);
  });

  it('should report a change only when setExpiration gets a new value', () => {
    expect(sut.getExpiration()).toBe(-1);
    expect(sut.setExpiration(1010)).toBe(true);
    expect(sut.setExpiration(1010)).toBe(false);
    expect(sut.setExpiration(1060)).toBe(true);
  });

  it('should empty the list, reset the expiration and hand out unlinked entries when flushed', () => {
    ['a', 'b'].forEach((id) => sut.add(entry(id)));
    sut.setExpiration(1010);
    const seen: string[] = [];
    sut.flush((e) => {
      expect(e.list).toBeNull();
      seen.push(e.id);
      if (e.id === 'a') sut.add(e);
    });
    expect(seen).toEqual(['a', 'b']);
    expect(ids(sut)).toEqual(['a']);
    expect(sut.getExpiration()).toBe(-1);
  });
});
