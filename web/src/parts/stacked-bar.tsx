/** A horizontal bar split into coloured parts, with a legend: how a whole (a budget, a tier's facts) divides. */
import { formatNumber } from '../format.js';

export interface BarPart {
  name: string;
  value: number;
  colour: string;
}

interface Props {
  parts: readonly BarPart[];
  /** The whole the bar stands for (default: the sum of the parts); what is left shows as empty. */
  total?: number;
  label: string;
  unit: string;
}

export function StackedBar({ parts, total, label, unit }: Props) {
  const sum = parts.reduce((all, part) => all + part.value, 0);
  const whole = Math.max(total ?? sum, sum, 1);
  const shown = parts.filter((part) => part.value > 0);
  const summary = shown.map((part) => `${part.name} ${formatNumber(part.value)}`).join(', ');
  return (
    <figure class="stacked-bar">
      <div class="bar" role="img" aria-label={`${label}: ${summary}${total !== undefined ? ` of ${formatNumber(total)} ${unit}` : ''}`}>
        {shown.map((part) => (
          <span key={part.name} class="bar-part" data-part={part.name} style={{ width: `${(part.value / whole) * 100}%`, background: part.colour }} title={`${part.name}: ${formatNumber(part.value)} ${unit}`} />
        ))}
      </div>
      <figcaption class="legend">
        {shown.map((part) => (
          <span key={part.name}>
            <i style={{ background: part.colour }} aria-hidden="true" /> {part.name} {formatNumber(part.value)}
          </span>
        ))}
        {total !== undefined && sum < total && (
          <span>
            <i class="free" aria-hidden="true" /> unused {formatNumber(total - sum)}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
