/** uPlot in a Preact component: made once per mount, given new data on each render, resized with its box. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** A chart of `data` (uPlot's columns: x first) drawn with `options` (width/height are the box's). */
export function Chart(props: {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height?: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const height = props.height ?? 220;
  useEffect(() => {
    const el = box.current!;
    const options = { legend: { live: false }, ...props.options, width: el.clientWidth || 600, height };
    plot.current = new uPlot(options, props.data, el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
    };
    // the options are fixed per mount; data changes go through setData below
  }, [props.options]);
  useEffect(() => plot.current?.setData(props.data), [props.data]);
  return <div class="chart" ref={box} role="img" aria-label={props.label} />;
}

/**
 * An x range (seconds) around the data with at least `padS` on each side. From the data itself: with one point,
 * uPlot hands a range function a span it widened by a day, so one run would spread over years.
 */
export const paddedTimeRange =
  (padS: number): uPlot.Range.Function =>
  (u) => {
    const xs = u.data[0];
    if (xs.length === 0) return [Date.now() / 1000 - 3600, Date.now() / 1000];
    const lo = xs[0];
    const hi = xs[xs.length - 1];
    const pad = Math.max(padS, (hi - lo) * 0.02);
    return [lo - pad, hi + pad];
  };
