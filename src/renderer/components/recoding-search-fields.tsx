import type { Measure } from '../../common/recoding/search/measures.js';
import { NumberField, SelectField } from './fields.js';

const MEASURE_OPTIONS: readonly { readonly value: Measure; readonly label: string }[] = [
  { value: 'loss', label: 'Loss (ARX)' },
  { value: 'discernibility', label: 'Discernibility' },
  { value: 'aecs', label: 'Average class size' },
  { value: 'entropy', label: 'Non-uniform entropy' },
  { value: 'precision', label: 'Precision' },
];

/** The optimal recoding search's two settings, as global and partitioned recoding offer them. */
export function RecodingSearchFields(props: {
  suppressionPercent: number;
  measure: Measure;
  onChange: (patch: { suppressionPercent?: number; measure?: Measure }) => void;
  error: string | undefined;
  limitHelp: string;
}) {
  return (
    <>
      <NumberField label="Suppression limit (%)" direction={{ neither: 'Neither: more deleted records let the columns stay more detailed; the model protects the same.' }} min={0} max={100} step={1} value={props.suppressionPercent} onChange={(suppressionPercent) => props.onChange({ suppressionPercent })} error={props.error} help={props.limitHelp} />
      <SelectField label="Utility measure" value={props.measure} options={MEASURE_OPTIONS} onChange={(measure) => props.onChange({ measure })} />
    </>
  );
}
