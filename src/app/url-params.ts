// The page's URL parameters (DESIGN.md): model=<url>, dim.NAME=VALUE, embed=1,
// strategy= and target= (read now, used once the planner exists).

/** What the URL asks the page to do. */
export interface UrlParams {
  readonly model: string | undefined; // a model URL to open instead of the sample
  readonly dims: Readonly<Record<string, number>>; // dim.NAME=VALUE bindings
  readonly embed: boolean; // chrome-less view for documentation pages
  readonly strategy: string | undefined;
  readonly target: string | undefined;
  readonly ignored: readonly string[]; // parameters that could not be used, as "name=value"
}

const DIM_PREFIX = 'dim.';

/** Parses a location.search string. Dim values must be whole numbers from 0 to 2^31 - 1. */
export function parseUrlParams(search: string): UrlParams {
  const params = new URLSearchParams(search);
  const dims: Record<string, number> = {};
  const ignored: string[] = [];
  for (const [key, raw] of params) {
    if (!key.startsWith(DIM_PREFIX)) continue;
    const name = key.slice(DIM_PREFIX.length);
    const value = Number(raw.trim());
    if (name === '' || !/^\d+$/.test(raw.trim()) || value > 2 ** 31 - 1) ignored.push(`${key}=${raw}`);
    else dims[name] = value;
  }
  const text = (key: string): string | undefined => {
    const value = params.get(key)?.trim();
    return value ? value : undefined;
  };
  const embed = params.get('embed');
  return {
    model: text('model'),
    dims,
    embed: embed === '1' || embed === 'true',
    strategy: text('strategy'),
    target: text('target'),
    ignored,
  };
}
