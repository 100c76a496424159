import { UTILITY_AXES, type UtilityAxis } from '../../common/compare/axes.js';
import { SelectField } from './fields.js';

/**
 * The Compare step's choice of what its chart measures utility by: the common pool's query error, the
 * accuracy a classifier of a chosen column loses when trained on the release instead of the input, or
 * how far the contingency tables of each quasi-identifier with the sensitive column move.
 */
export function UtilityAxisFields(props: {
  axis: UtilityAxis['key'];
  target: string;
  targets: readonly string[];
  onAxis: (axis: UtilityAxis['key']) => void;
  onTarget: (target: string) => void;
}) {
  const target = props.targets.includes(props.target) ? props.target : (props.targets[0] ?? '');
  return (
    <>
      <SelectField
        label="Utility measured by"
        value={props.axis}
        options={UTILITY_AXES.map((a) => ({ value: a.key, label: a.words }))}
        onChange={props.onAxis}
        help={
          props.axis === 'accuracy-lost'
            ? 'A naive Bayes classifier learns the column below from the other released columns, once from the release and once from the input; the chart shows how many points of accuracy the release loses.'
            : props.axis === 'table-distance'
              ? 'The tables of each quasi-identifier with the sensitive column, before and after: the mean total variation distance (0: the same shares of records, 1: nothing in common).'
              : 'The mean relative error of the same count queries answered from each release.'
        }
      />
      {props.axis === 'accuracy-lost' && <SelectField label="Column the classifier predicts" value={target} options={props.targets.map((t) => ({ value: t, label: t }))} onChange={props.onTarget} />}
    </>
  );
}
