// The tensor table's kind filter: a segmented group of radio buttons (all,
// run-time tensors, weights, constants) with the count behind each: with a
// search typed, how many of them it lets through ("12 of 340"; "12" in a
// narrow pane, the whole in the title), the rows the table lists when that
// filter is chosen.

import { formatCount } from '../../shared/format';
import { useActions, useAppStore } from '../../store/context';
import { selectKindCounts, selectKindMatches } from '../../store/planned-selectors';
import type { KindFilter as KindFilterValue } from '../../store/state';

const OPTIONS: readonly { readonly id: KindFilterValue; readonly label: string; readonly hint: string }[] = [
  { id: 'all', label: 'All', hint: 'Every tensor of the model' },
  { id: 'runtime', label: 'Run-time', hint: 'Graph inputs, activations and outputs: what lives in activation memory' },
  { id: 'weights', label: 'Weights', hint: 'Initializers stored in the file' },
  { id: 'constants', label: 'Constants', hint: 'Tensors computable from constants alone' },
];

/** Radio buttons choosing which kinds of tensor the table lists. */
export function KindFilter() {
  const kinds = useAppStore((s) => s.kinds);
  const counts = useAppStore(selectKindCounts);
  const matches = useAppStore(selectKindMatches);
  const { setKindFilter } = useActions();
  return (
    <fieldset className="segmented" data-testid="kind-filter">
      <legend className="visually-hidden">Show tensors</legend>
      {OPTIONS.map((option) => (
        <label key={option.id} className="segment" title={matches === undefined ? option.hint : `${option.hint}: ${formatCount(matches[option.id])} of ${formatCount(counts[option.id])} match the search`}>
          <input
            type="radio"
            name="kind-filter"
            value={option.id}
            className="visually-hidden"
            checked={kinds === option.id}
            onChange={() => setKindFilter(option.id)}
          />
          {option.label}
          <span className="segment-count">
            {matches === undefined ? (
              formatCount(counts[option.id])
            ) : (
              <>
                {formatCount(matches[option.id])}
                <span className="segment-of"> of {formatCount(counts[option.id])}</span>
              </>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
