// Writes public/sample.onnx, the model the app opens on: a small MobileNet-v2-shaped
// network built by src/model/testing/sample-model.ts. Run: npx tsx scripts/make-sample.ts

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSampleModel } from '../src/model/testing/sample-model';

const path = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'sample.onnx');
const bytes = buildSampleModel();
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, bytes);
console.log(`wrote ${path} (${bytes.byteLength} bytes)`);
