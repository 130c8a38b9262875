/** Small Preact hooks of the console: the hash route, polled data and the page's visibility. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** How often a live view asks again (the bound: every ≤ 2 s), ms. */
export const REFRESH_MS = 2000;

/** The route after `#` (default `/`) split into path and query; follows hash changes. */
export function useRoute(): { path: string; query: URLSearchParams } {
  const read = () => {
    const [path, query = ''] = (location.hash.replace(/^#/, '') || '/').split('?');
    return { path, query: new URLSearchParams(query) };
  };
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** Goes to `path` (with `query`'s non-empty values) in the hash. */
export function go(path: string, query: Record<string, string | number | undefined | null> = {}): void {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  location.hash = s ? `${path}?${s}` : path;
}

/** What a loader answered: its data, its error, whether it runs, and a way to run it again at once. */
export interface Loaded<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `deps` change and, with `everyMs`, again that long after each answer while the tab is visible
 * (a hidden tab asks nothing). A slow answer is never overlapped by the next ask; an answer for old deps is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], everyMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (everyMs && document.hidden) {
        timer = setTimeout(run, everyMs);
        return;
      }
      try {
        const data = await loadRef.current();
        if (live) setState({ data, loading: false });
      } catch (err) {
        if (live) setState((s) => ({ data: s.data, error: err as Error, loading: false }));
      }
      if (live && everyMs) timer = setTimeout(run, everyMs);
    };
    setState((s) => ({ data: s.data, loading: true }));
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps, tick, everyMs]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
