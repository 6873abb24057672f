/**
 * One row per metric and variant, goals first: the control's and the variant's value, the
 * lift with its interval drawn on one axis shared by every row, the chance to win and the
 * risk of choosing it or the p-value under its own name, and the verdict in words. The table
 * is the content; the drawings in it are pictures of the numbers beside them (hidden from
 * screen readers). Under it, a line per figure says what it means.
 */
import { useId } from 'react';
import type {
  Engine,
  ExperimentResults,
  ResultsMetric,
  ResultsVariant,
} from '../../../../contract/experiments';
import { Button } from '../../../components/button';
import {
  formatCount,
  formatInterval,
  formatLift,
  formatPercent,
  formatPValue,
  formatRisk,
  formatValue,
  VERDICT_WORDS,
} from './format';
import { liftScale, type LiftScale } from './scale';

const AXIS_WIDTH = 240;
const ROW_HEIGHT = 24;

/** Goals in the order the test names them, then guardrails. */
export function metricsInOrder(metrics: readonly ResultsMetric[]): ResultsMetric[] {
  return [
    ...metrics.filter((metric) => metric.role === 'goal'),
    ...metrics.filter((metric) => metric.role === 'guardrail'),
  ];
}

export function controlOf(metric: ResultsMetric): ResultsVariant | undefined {
  return metric.variants.find((variant) => variant.verdict === 'control') ?? metric.variants[0];
}

export function challengersOf(metric: ResultsMetric): ResultsVariant[] {
  const control = controlOf(metric);
  return metric.variants.filter((variant) => variant !== control);
}

/** The variants winning on the primary goal (the first goal): those Promote is offered for. */
export function clearWinners(metrics: readonly ResultsMetric[]): Set<string> {
  const primary = metrics.find((metric) => metric.role === 'goal');
  return new Set(
    (primary ? challengersOf(primary) : [])
      .filter((variant) => variant.verdict === 'winning')
      .map((variant) => variant.id),
  );
}

export function metricLabel(metric: ResultsMetric): string {
  return metric.name ?? metric.id;
}

/** The name the engine's figure goes by: never one for the other. */
export function figureName(engine: Engine): string {
  return engine === 'bayesian' ? 'Chance to win' : 'p-value';
}

const RISK_NAME = 'Risk of choosing';

function figureOf(variant: ResultsVariant, engine: Engine): string {
  if (engine === 'bayesian') {
    return variant.chance_to_win === undefined ? '—' : formatPercent(variant.chance_to_win);
  }
  return variant.p_value === undefined ? '—' : formatPValue(variant.p_value);
}

/** What each figure of the engine means, in a sentence a non-statistician reads. */
function FigureGlossary({ engine, ids }: { engine: Engine; ids: FigureIds }) {
  return (
    <dl className="details results-glossary">
      {engine === 'bayesian' ? (
        <>
          <dt>{figureName(engine)}</dt>
          <dd id={ids.figure}>How likely the variant is really better than the control.</dd>
          <dt>{RISK_NAME}</dt>
          <dd id={ids.risk}>
            What choosing the variant would cost on average should it in fact be worse than the
            control, as a share of the control&rsquo;s value: 0.3% means you stand to lose 0.3%. A
            small risk can be worth taking even before there is a winner.
          </dd>
        </>
      ) : (
        <>
          <dt>{figureName(engine)}</dt>
          <dd id={ids.figure}>
            If the variant made no difference, how likely a difference at least this large would be.
            Below 0.05 the difference is called significant.
          </dd>
        </>
      )}
    </dl>
  );
}

interface FigureIds {
  readonly figure: string;
  readonly risk: string;
}

function LiftAxis({ scale }: { scale: LiftScale }) {
  return (
    <svg
      className="lift-axis"
      viewBox={`-8 0 ${AXIS_WIDTH + 16} 18`}
      width={AXIS_WIDTH + 16}
      height={18}
      aria-hidden="true"
      focusable="false"
    >
      {scale.ticks.map((tick) => (
        <text
          key={tick}
          x={scale.at(tick) * AXIS_WIDTH}
          y={13}
          textAnchor="middle"
          className="chart-label"
        >
          {formatLift(tick).replace('.0%', '%')}
        </text>
      ))}
    </svg>
  );
}

function LiftBar({ variant, scale }: { variant: ResultsVariant; scale: LiftScale }) {
  const zero = scale.at(0) * AXIS_WIDTH;
  return (
    <svg
      className={`lift-bar lift-${variant.verdict}`}
      viewBox={`-8 0 ${AXIS_WIDTH + 16} ${ROW_HEIGHT}`}
      width={AXIS_WIDTH + 16}
      height={ROW_HEIGHT}
      aria-hidden="true"
      focusable="false"
    >
      {scale.ticks.map((tick) => (
        <line
          key={tick}
          className="chart-grid"
          x1={scale.at(tick) * AXIS_WIDTH}
          x2={scale.at(tick) * AXIS_WIDTH}
          y1={0}
          y2={ROW_HEIGHT}
        />
      ))}
      <line className="chart-zero" x1={zero} x2={zero} y1={0} y2={ROW_HEIGHT} />
      {variant.lift && (
        <>
          <line
            className="lift-interval"
            x1={scale.at(variant.lift.interval[0]) * AXIS_WIDTH}
            x2={scale.at(variant.lift.interval[1]) * AXIS_WIDTH}
            y1={ROW_HEIGHT / 2}
            y2={ROW_HEIGHT / 2}
          />
          <circle
            className="lift-estimate"
            cx={scale.at(variant.lift.estimate) * AXIS_WIDTH}
            cy={ROW_HEIGHT / 2}
            r={4}
          />
        </>
      )}
    </svg>
  );
}

/** The verdict in words; with no result, why (the server's note). */
export function verdictWords(variant: ResultsVariant): string {
  return variant.verdict === 'no_result' && variant.note
    ? variant.note
    : VERDICT_WORDS[variant.verdict];
}

function roleWords(metric: ResultsMetric, primary: boolean): string {
  if (metric.role === 'guardrail') return 'Guardrail';
  return primary ? 'Primary goal' : 'Goal';
}

interface MetricsTableProps {
  results: ExperimentResults;
  /** Given: a clear winner gets "Promote <variant>" beside it. */
  onPromote: ((variant: string) => void) | undefined;
}

export function MetricsTable({ results, onPromote }: MetricsTableProps) {
  const metrics = metricsInOrder(results.metrics);
  const scale = liftScale(
    metrics.flatMap((metric) =>
      metric.variants.flatMap((variant) =>
        variant.lift ? [...variant.lift.interval, variant.lift.estimate] : [],
      ),
    ),
  );
  const winners = clearWinners(metrics);
  const primary = metrics.find((metric) => metric.role === 'goal');
  const figure = figureName(results.engine);
  const bayesian = results.engine === 'bayesian';
  const glossaryId = useId();
  const ids: FigureIds = { figure: `${glossaryId}-figure`, risk: `${glossaryId}-risk` };

  return (
    <>
      <div className="table-wrap">
        <table className="table results-table">
          <caption className="visually-hidden">Metrics</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Variant</th>
              <th scope="col">Control</th>
              <th scope="col">Variant value</th>
              <th scope="col">
                Lift (95% interval)
                <LiftAxis scale={scale} />
              </th>
              <th scope="col" aria-describedby={ids.figure}>
                {figure}
              </th>
              {bayesian && (
                <th scope="col" aria-describedby={ids.risk}>
                  {RISK_NAME}
                </th>
              )}
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {metrics.flatMap((metric) => {
              const control = controlOf(metric);
              return challengersOf(metric).map((variant) => (
                <tr key={`${metric.role} ${metric.id} ${variant.id}`}>
                  <th scope="row">
                    {metricLabel(metric)}
                    <span className="cell-note muted">
                      {roleWords(metric, metric === primary)}
                      {metric.inverse && ' · lower is better'}
                    </span>
                  </th>
                  <td>{variant.id}</td>
                  <td>
                    {control ? formatValue(control.value, metric.kind) : '—'}
                    {control && (
                      <span className="cell-note muted">{formatCount(control.units)} units</span>
                    )}
                  </td>
                  <td>
                    {formatValue(variant.value, metric.kind)}
                    <span className="cell-note muted">{formatCount(variant.units)} units</span>
                  </td>
                  <td className="lift-cell">
                    <LiftBar variant={variant} scale={scale} />
                    {variant.lift ? (
                      <span className="lift-words">
                        {formatLift(variant.lift.estimate)}{' '}
                        <span className="muted">({formatInterval(variant.lift.interval)})</span>
                      </span>
                    ) : (
                      <span className="lift-words">—</span>
                    )}
                  </td>
                  <td>{figureOf(variant, results.engine)}</td>
                  {bayesian && (
                    <td>{variant.risk === undefined ? '—' : formatRisk(variant.risk)}</td>
                  )}
                  <td>
                    <span className={`verdict verdict-${variant.verdict}`}>
                      {verdictWords(variant)}
                    </span>
                    {variant.note && variant.verdict === 'not_enough_data' && (
                      <span className="cell-note muted">{variant.note}</span>
                    )}
                    {metric === primary && winners.has(variant.id) && onPromote && (
                      <Button variant="primary" onClick={() => onPromote(variant.id)}>
                        Promote {variant.id}
                      </Button>
                    )}
                  </td>
                </tr>
              ));
            })}
          </tbody>
        </table>
      </div>
      <FigureGlossary engine={results.engine} ids={ids} />
    </>
  );
}
