// Reads the dims attribute of <heapscope-view>: "batch=4, sequence=128", the
// same bindings as the page's dim.NAME=VALUE URL parameters.

import { readDims } from '../store/dim-params';

/** Dim bindings of an attribute, and the entries that could not be used. */
export interface DimsAttribute {
  readonly values: Readonly<Record<string, number>>;
  readonly ignored: readonly string[]; // entries that are not NAME=VALUE, and "name=value: why" for values that are not whole numbers
}

/** Parses "NAME=VALUE" entries separated by commas or spaces. */
export function parseDimsAttribute(text: string): DimsAttribute {
  const params = new URLSearchParams();
  const ignored: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq <= 0) ignored.push(entry);
    else params.append(`dim.${entry.slice(0, eq)}`, entry.slice(eq + 1));
  }
  const bad: string[] = [];
  const values = readDims(params, bad);
  return { values, ignored: [...ignored, ...bad.map((p) => p.slice('dim.'.length))] };
}
