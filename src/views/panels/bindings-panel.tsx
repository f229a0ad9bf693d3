// The side bar's fields for what the file leaves open besides dims: a shape for
// each graph input and for any other tensor (it propagates), and a value for
// the small graph inputs a branch may read (an If on a sample rate).

import { useId, useState } from 'react';
import type { InferredModel } from '../../model/inferred';
import { useAppStore } from '../../store/context';
import { InputValueField, ShapeField } from './binding-fields';
import { Panel } from './panel';

/** Largest graph input (in elements, or with unknown shape) offered a value field. */
const VALUE_ELEMENTS = 16;
/** Names the tensor picker suggests. */
const SUGGESTED = 500;

/** Shapes and input values of the shown model. */
export function BindingsPanel() {
  const model = useAppStore((s) => s.model?.inferred);
  const shapes = useAppStore((s) => s.shapes);
  if (model === undefined) return null;
  const inputs = model.values.filter((v) => v.kind === 'input');
  const others = Object.keys(shapes).filter((name) => !model.inputs.includes(name));
  return (
    <Panel title="Shapes and input values" count={Object.keys(shapes).length + Object.keys(model.inputValues ?? {}).length} testId="bindings-panel">
      <ul className="bindings">
        {inputs.map((v) => (
          <li key={v.name} className="binding" data-testid="binding-input" data-name={v.name}>
            <ShapeField tensor={v.name} inferred={v.shape} compact />
            {(v.shape === undefined || v.shape.reduce((a, b) => a * b, 1) <= VALUE_ELEMENTS) && <InputValueField input={v.name} compact />}
          </li>
        ))}
        {others.map((name) => (
          <li key={name} className="binding">
            <ShapeField tensor={name} compact />
          </li>
        ))}
      </ul>
      <OtherTensor model={model} />
    </Panel>
  );
}

/** Picks any tensor by name, then shows its shape field. */
function OtherTensor({ model }: { readonly model: InferredModel }) {
  const [name, setName] = useState('');
  const id = useId();
  const known = model.values.some((v) => v.name === name && v.kind !== 'initializer' && v.kind !== 'constant');
  const inferred = model.values.find((v) => v.name === name)?.shape;
  return (
    <div className="binding-other">
      <label htmlFor={id} className="binding-label">
        Shape of another tensor
      </label>
      <input id={id} className="input mono" list={`${id}-names`} value={name} placeholder="tensor name" onChange={(event) => setName(event.target.value)} data-testid="other-tensor" />
      <datalist id={`${id}-names`}>
        {model.values
          .filter((v) => v.kind === 'activation' || v.kind === 'output')
          .slice(0, SUGGESTED)
          .map((v) => (
            <option key={v.name} value={v.name} />
          ))}
      </datalist>
      {known && <ShapeField key={name} tensor={name} inferred={inferred} compact />}
    </div>
  );
}
