// The region switcher of a heap diagram, shared by the page's heap and each
// side of the comparison: when the diagram is too short for every region's
// lane to be read, it shows the region of the peak alone and a select offers
// the others (or all of them at once); a region the user chose stays chosen.

import { useState } from 'react';
import type { ModelPlan } from '../../planner/plan';
import { drawnRegions, laneHeight, READABLE_LANE, regionPlan } from './heap-regions';

/** The regions a heap diagram draws. */
export interface ShownRegion {
  readonly regions: readonly string[]; // the plan's regions that hold buffers
  readonly region: string | undefined; // 'all', or the one region drawn; undefined without a plan
  readonly auto: boolean; // decided by the diagram's height, not chosen
  readonly why: string | undefined; // why a region drawn alone is that one ("the region of the peak")
  readonly plan: ModelPlan | undefined; // what is drawn: the plan, or its one region's part
  readonly choose: (region: string) => void;
}

/**
 * The regions to draw of `plan` in a diagram `height` CSS pixels tall (undefined
 * until measured): all while every lane is readable, else `prefer` (the region
 * of what is pointed at) or the region of the peak, unless the user chose.
 * `all`: every region whatever the height (a table, which has no switcher).
 */
export function useShownRegion(plan: ModelPlan | undefined, height: number | undefined, { all = false, prefer }: { readonly all?: boolean; readonly prefer?: string } = {}): ShownRegion {
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const regions = plan === undefined ? [] : drawnRegions(plan);
  const crowded = height !== undefined && regions.length > 1 && laneHeight(height, regions.length) < READABLE_LANE;
  const valid = chosen !== undefined && (chosen === 'all' || regions.includes(chosen));
  const focused = prefer !== undefined && regions.includes(prefer);
  const alone = focused ? prefer : (plan?.peakRegion ?? regions[0]);
  const why = focused ? 'the region of the buffers pointed at' : plan?.peakRegion !== undefined ? 'the region of the peak' : undefined;
  const region = all ? 'all' : valid ? chosen : crowded ? alone : 'all';
  const shown = plan === undefined || region === undefined || region === 'all' || regions.length < 2 ? plan : regionPlan(plan, region);
  return { regions, region, auto: !valid, why, plan: shown, choose: setChosen };
}

/** The select of the regions drawn; nothing for a plan of one region. */
export function RegionSwitcher({ shown }: { readonly shown: ShownRegion }) {
  const { regions, region, auto, why, choose } = shown;
  if (regions.length < 2 || region === undefined) return null;
  const title = auto && region !== 'all' ? `${region} alone${why === undefined ? '' : `, ${why}`}: the pane is too short for every region's lanes to be read; choose All regions to draw them all` : 'Regions drawn in the diagram';
  return (
    <select className="input select heap-region" value={region} onChange={(e) => choose(e.target.value)} aria-label="Regions shown" data-testid="heap-region" data-auto={auto} title={title}>
      <option value="all">All regions</option>
      {regions.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}
