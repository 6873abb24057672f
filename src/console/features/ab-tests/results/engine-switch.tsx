/**
 * The statistics engine and, for the frequentist one, sequential testing and the correction
 * for many comparisons. Each choice goes into the address, so a link shows the same view.
 */
import { useId } from 'react';
import type { Correction } from '../../../../contract/experiments';
import type { ResultsView } from './results-view';

const CORRECTION_WORDS: Record<Correction, string> = {
  none: 'None',
  holm: 'Holm',
  bh: 'Benjamini–Hochberg',
};

interface EngineSwitchProps {
  view: ResultsView;
  onChange: (change: Partial<ResultsView>) => void;
}

export function EngineSwitch({ view, onChange }: EngineSwitchProps) {
  const id = useId();
  return (
    <div className="engine-switch">
      <fieldset className="radio-group">
        <legend>Statistics engine</legend>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-engine`}
            value="bayesian"
            checked={view.engine === 'bayesian'}
            onChange={() => onChange({ engine: 'bayesian' })}
          />
          Bayesian
        </label>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-engine`}
            value="frequentist"
            checked={view.engine === 'frequentist'}
            onChange={() => onChange({ engine: 'frequentist' })}
          />
          Frequentist
        </label>
      </fieldset>
      {view.engine === 'frequentist' && (
        <>
          <div className="checkbox">
            <input
              id={`${id}-sequential`}
              type="checkbox"
              checked={view.sequential}
              onChange={(event) => onChange({ sequential: event.target.checked })}
            />
            <label htmlFor={`${id}-sequential`}>Sequential testing (look every day)</label>
          </div>
          <div className="field">
            <label htmlFor={`${id}-correction`}>Correction for many comparisons</label>
            <select
              id={`${id}-correction`}
              value={view.correction}
              onChange={(event) => onChange({ correction: event.target.value as Correction })}
            >
              {(Object.keys(CORRECTION_WORDS) as Correction[]).map((correction) => (
                <option key={correction} value={correction}>
                  {CORRECTION_WORDS[correction]}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
    </div>
  );
}
