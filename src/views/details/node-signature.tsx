// A selected node's signature, as Netron shows it: its attributes (kernel,
// strides, pads, group, axis…) and each input and output with its dtype and
// shape. Names link to the tensor's buffer when it has one.

import type { ReactNode } from 'react';
import type { InferredModel, InferredNode } from '../../model/inferred';
import { modelLookup } from '../heap/heap-data';
import { shortName, titleText } from '../../shared/short-name';
import { attributeRows, tensorType } from './node-signature-words';

/** Props of NodeSignature. */
export interface NodeSignatureProps {
  readonly model: InferredModel;
  readonly node: InferredNode;
  readonly tensorLink: (name: string) => ReactNode | undefined; // a link to the tensor's buffer, or undefined when it has none
}

/** The node's attributes, inputs and outputs. */
export function NodeSignature({ model, node, tensorLink }: NodeSignatureProps) {
  const { values } = modelLookup(model);
  const attributes = attributeRows(node.attributes);
  const row = (role: string, names: readonly string[]) =>
    names.map((name, k) =>
      name === '' ? null : (
        <tr key={`${role}${k}`} data-tensor={name} data-role={role}>
          <th scope="row" className="muted">
            {k === 0 ? role : ''}
          </th>
          <td className="mono truncate" title={titleText(name)}>
            {tensorLink(name) ?? shortName(name)}
          </td>
          <td className="mono">
            <Breakable text={tensorType(values.get(name))} />
          </td>
        </tr>
      ),
    );
  return (
    <div className="node-signature" data-testid="node-signature">
      {attributes.length > 0 && (
        <table className="signature-table" data-testid="node-attributes">
          <caption className="muted">attributes</caption>
          <tbody>
            {attributes.map((a) => (
              <tr key={a.name} data-attribute={a.name}>
                <th scope="row">{a.name}</th>
                <td className="mono" colSpan={2}>
                  <Breakable text={a.text} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <table className="signature-table" data-testid="node-io">
        <tbody>
          {row('in', node.inputs)}
          {row('out', node.outputs)}
        </tbody>
      </table>
    </div>
  );
}

/** `text` with line-break chances after '×', ',' and '[' only, so a narrow pane wraps a shape or a list between its numbers, never inside one. */
function Breakable({ text }: { readonly text: string }) {
  const parts = text.split(/(?<=[×,[])/u);
  return (
    <span className="breakable">
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </span>
  );
}
