// Fails when the source has an import circle: two or more modules that import
// one another (directly or through others), type-only imports included, since
// CONVENTIONS says such files are one module or a third holds what they share.
// Reads every .ts/.tsx file under src/ and cli/ (tests and testing/ helpers
// included), resolves relative imports, and finds strongly connected
// components (Tarjan). Prints each circle and exits 1; prints a count and exits 0.
// Run by `npm run lint`. A circle listed in import-circles-allowed.txt (its
// exact set of files) is reported but passes; a listed circle that is gone
// fails too, so the list only shrinks. Given directories instead of src and
// cli, checks those and ignores the list (the checker's own test does this).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const given = process.argv.slice(2);
const roots = given.length > 0 ? given : [join(repo, 'src'), join(repo, 'cli')];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const all = roots.flatMap((r) => files(r)).map((f) => resolve(f));
const edges = new Map(all.map((f) => [f, []]));
for (const file of all) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(file, m[1]);
    if (target !== undefined && edges.has(target)) edges.get(file).push(target);
  }
}

// Tarjan's strongly connected components, iterative.
let index = 0;
const indices = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const components = [];
for (const start of all) {
  if (indices.has(start)) continue;
  const work = [[start, 0]];
  indices.set(start, index);
  low.set(start, index++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [v, i] = frame;
    const next = edges.get(v)[i];
    if (next !== undefined) {
      frame[1]++;
      if (!indices.has(next)) {
        indices.set(next, index);
        low.set(next, index++);
        stack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next)) {
        low.set(v, Math.min(low.get(v), indices.get(next)));
      }
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(v)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  }
}

/** A circle as the allow-list writes it: its files from the repository root, sorted, joined by " <-> ". */
const circleText = (component) => component.map((f) => relative(repo, f).split('\\').join('/')).sort().join(' <-> ');

/** The allowed circles, one a line; "#" starts a comment. */
function allowedCircles() {
  if (given.length > 0) return new Set();
  const text = readFileSync(join(repo, 'scripts', 'import-circles-allowed.txt'), 'utf8');
  return new Set(text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean));
}

const allowed = allowedCircles();
const found = components.map(circleText);
const failing = found.filter((c) => !allowed.has(c));
const gone = [...allowed].filter((c) => !found.includes(c));
for (const c of found.filter((c) => allowed.has(c))) console.log(`import circle allowed for now (scripts/import-circles-allowed.txt): ${c}`);
if (failing.length > 0 || gone.length > 0) {
  if (failing.length > 0) console.error(`import circles: ${failing.length}`);
  for (const c of failing) console.error(`  ${c}`);
  for (const c of gone) console.error(`allowed import circle no longer found, remove it from scripts/import-circles-allowed.txt: ${c}`);
  process.exit(1);
}
console.log(`import circles: none in ${all.length} modules${allowed.size > 0 ? ` besides ${allowed.size} allowed` : ''}`);
