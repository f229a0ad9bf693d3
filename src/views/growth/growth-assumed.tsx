// The line that says what a curve assumes beyond the page's bindings: on a
// decoder's cache length, that every point is a decode step (one new token),
// while the plan on screen is of the default sequence length; with one click
// to plan the curve at the page's sequence length instead.

import { useActions } from '../../store/context';
import type { SweepAssumedDim } from '../../planner/sweep/decode-step';
import { shortName } from '../../shared/short-name';
import { assumedDimText } from './growth-input';
import { growthAssumes } from '../../store/growth';
import type { GrowthPoint } from '../../worker/protocol';

/** The assumption and the button that drops it; nothing without one. */
export function GrowthAssumed({ assumed }: { readonly assumed: SweepAssumedDim | undefined }) {
  const { setDim } = useActions();
  if (assumed === undefined) return null;
  const name = shortName(assumed.name);
  return (
    <p className="muted growth-assumed" data-testid="growth-assumed" data-dim={assumed.name} data-value={assumed.value}>
      Every point is planned with {assumedDimText(assumed)}. The plan on screen has {name} = {assumed.shown}: its peak is not on the curve.{' '}
      <button type="button" className="button button-small" onClick={() => void setDim(assumed.name, assumed.shown)} data-testid="growth-assumed-change" title={`Bind ${name} to ${assumed.shown} (you can change it with the other dims); the curve is planned again with it`}>
        Use {name} = {assumed.shown}
      </button>
    </p>
  );
}

/** What the curve's points rest on, one line each, as `sweep` and `plan` say it: default dims, If branches, the past inputs reused, graph I/O outside the arena. */
export function GrowthAssumptions({ points, dim }: { readonly points: readonly GrowthPoint[]; readonly dim: string }) {
  const lines = growthAssumes(points, dim);
  if (lines.length === 0) return null;
  // one line under the chart until opened, so the chart and its legend keep the pane's height
  return (
    <details className="muted growth-assumptions" data-testid="growth-assumptions">
      <summary>
        What the curve assumes ({lines.length} {lines.length === 1 ? 'line' : 'lines'})
      </summary>
      <ul>
        {lines.map((line) => (
          <li key={line}>{capitalized(line)}.</li>
        ))}
      </ul>
    </details>
  );
}

/** The sentence with its first letter in upper case. */
function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
