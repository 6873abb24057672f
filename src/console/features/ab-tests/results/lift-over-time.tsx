/**
 * The cumulative lift of one metric and variant, day by day: a line with its interval as a
 * band, and the same numbers as a table for screen readers. Days without a lift leave a gap.
 */
import { useId, useState } from 'react';
import type {
  ExperimentResults,
  ExperimentTimeseries,
  ResultsQuery,
} from '../../../../contract/experiments';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { useTimeseries } from '../api/get-results';
import { formatCount, formatInterval, formatLift } from './format';
import { challengersOf, controlOf, metricLabel, metricsInOrder } from './metrics-table';
import { liftScale } from './scale';

const WIDTH = 600;
const HEIGHT = 200;
const LEFT = 48;
const BOTTOM = 24;

type Point = ExperimentTimeseries['metrics'][number]['variants'][number]['points'][number];

/** The runs of consecutive days that have a lift: each is drawn on its own. */
function runsOf(points: readonly Point[]): { index: number; point: Point }[][] {
  const runs: { index: number; point: Point }[][] = [];
  let run: { index: number; point: Point }[] = [];
  points.forEach((point, index) => {
    if (point.lift) run.push({ index, point });
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

function LiftChart({ points, titleId }: { points: readonly Point[]; titleId: string }) {
  const scale = liftScale(
    points.flatMap((point) => (point.lift ? [point.lift.estimate, ...point.lift.interval] : [])),
  );
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - BOTTOM - 8;
  const x = (index: number) =>
    LEFT + (points.length === 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (lift: number) => 8 + (1 - scale.at(lift)) * plotHeight;
  const xy = (index: number, lift: number) => `${x(index).toFixed(1)},${y(lift).toFixed(1)}`;
  const first = points[0];
  const last = points.at(-1);

  return (
    <svg
      className="lift-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      preserveAspectRatio="xMidYMid meet"
    >
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line className="chart-grid" x1={LEFT} x2={WIDTH - 8} y1={y(tick)} y2={y(tick)} />
          <text className="chart-label" x={LEFT - 6} y={y(tick) + 4} textAnchor="end">
            {formatLift(tick).replace('.0%', '%')}
          </text>
        </g>
      ))}
      <line className="chart-zero" x1={LEFT} x2={WIDTH - 8} y1={y(0)} y2={y(0)} />
      {runsOf(points).map((run) => (
        <g key={run[0]?.index}>
          <polygon
            className="lift-band"
            points={[
              ...run.map(({ index, point }) => xy(index, point.lift?.interval[1] ?? 0)),
              ...run
                .slice()
                .reverse()
                .map(({ index, point }) => xy(index, point.lift?.interval[0] ?? 0)),
            ].join(' ')}
          />
          <polyline
            className="lift-line"
            points={run.map(({ index, point }) => xy(index, point.lift?.estimate ?? 0)).join(' ')}
          />
          {run.length === 1 &&
            run.map(({ index, point }) => (
              <circle
                key={index}
                className="lift-estimate"
                cx={x(index)}
                cy={y(point.lift?.estimate ?? 0)}
                r={3}
              />
            ))}
        </g>
      ))}
      {first && (
        <text className="chart-label" x={LEFT} y={HEIGHT - 6} textAnchor="start">
          {first.date}
        </text>
      )}
      {last && last !== first && (
        <text className="chart-label" x={WIDTH - 8} y={HEIGHT - 6} textAnchor="end">
          {last.date}
        </text>
      )}
    </svg>
  );
}

interface LiftOverTimeProps {
  testId: string;
  query: ResultsQuery;
  results: ExperimentResults;
}

export function LiftOverTime({ testId, query, results }: LiftOverTimeProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const metrics = metricsInOrder(results.metrics);
  const [chosen, setChosen] = useState<{ metric: string; variant: string } | null>(null);
  const metric =
    metrics.find((candidate) => `${candidate.role} ${candidate.id}` === chosen?.metric) ??
    metrics[0];
  const challengers = metric ? challengersOf(metric) : [];
  const variant =
    challengers.find((candidate) => candidate.id === chosen?.variant) ?? challengers[0];
  const series = useTimeseries(testId, query, results.computed_at, {
    enabled: metric !== undefined,
  });

  if (!metric || !variant) return null;
  const control = controlOf(metric);
  const points =
    series.data?.metrics
      .find((candidate) => candidate.id === metric.id)
      ?.variants.find((candidate) => candidate.id === variant.id)?.points ?? [];
  const title = `Cumulative lift of ${variant.id} against ${control?.id ?? 'the control'} on ${metricLabel(metric)}`;

  return (
    <section className="lift-over-time" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Lift over time</h3>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-metric`}>Metric</label>
          <select
            id={`${id}-metric`}
            value={`${metric.role} ${metric.id}`}
            onChange={(event) => setChosen({ metric: event.target.value, variant: variant.id })}
          >
            {metrics.map((candidate) => (
              <option
                key={`${candidate.role} ${candidate.id}`}
                value={`${candidate.role} ${candidate.id}`}
              >
                {metricLabel(candidate)} ({candidate.role === 'goal' ? 'goal' : 'guardrail'})
              </option>
            ))}
          </select>
        </div>
        {challengers.length > 1 && (
          <div className="field">
            <label htmlFor={`${id}-variant`}>Variant</label>
            <select
              id={`${id}-variant`}
              value={variant.id}
              onChange={(event) =>
                setChosen({ metric: `${metric.role} ${metric.id}`, variant: event.target.value })
              }
            >
              {challengers.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.id}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <p id={titleId} className="muted">
        {title}, with its 95% interval, as it stood at the end of each day (UTC).
      </p>
      {series.isPending ? (
        <Spinner label="Loading the lift over time…" />
      ) : series.isError ? (
        <p role="alert" className="alert alert-error">
          The lift over time could not be loaded. {describeError(series.error)}
        </p>
      ) : points.length === 0 ? (
        <p>No days to show yet.</p>
      ) : (
        <>
          <LiftChart points={points} titleId={titleId} />
          <table className="visually-hidden">
            <caption>{title}, by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Units</th>
                <th scope="col">Lift</th>
                <th scope="col">95% interval</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.date}>
                  <th scope="row">{point.date}</th>
                  <td>{formatCount(point.units)}</td>
                  <td>{point.lift ? formatLift(point.lift.estimate) : 'No result'}</td>
                  <td>{point.lift ? formatInterval(point.lift.interval) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
