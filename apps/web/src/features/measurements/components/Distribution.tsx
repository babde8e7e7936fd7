import { histogram, summary } from '../flow';
import Typography from '@mui/material/Typography';

const W = 360;
const H = 140;

/** A histogram of one measurement over the cohort's patients (failed patients left out), with mean ± SD. */
export function Distribution({ name, unit, values }: { name: string; unit: string; values: (number | null)[] }) {
  const bins = histogram(values);
  const stats = summary(values);
  const top = Math.max(1, ...bins.map((b) => b.count));
  const w = bins.length > 0 ? W / bins.length : W;
  return (
    <figure style={{ margin: 0 }}>
      <svg width={W} height={H + 20} role="img" aria-label={`Distribution of ${name}`}>
        {bins.map((b, i) => {
          const h = (b.count / top) * H;
          return (
            <rect key={i} x={i * w + 1} y={H - h} width={Math.max(1, w - 2)} height={h} fill="#3f6ad8">
              <title>{`${b.from.toFixed(1)}–${b.to.toFixed(1)} ${unit}: ${b.count}`}</title>
            </rect>
          );
        })}
        {bins.length > 0 && (
          <>
            <text x={0} y={H + 15} fontSize={11}>
              {bins[0]?.from.toFixed(1)}
            </text>
            <text x={W} y={H + 15} fontSize={11} textAnchor="end">
              {bins[bins.length - 1]?.to.toFixed(1)} {unit}
            </text>
          </>
        )}
      </svg>
      <Typography component="figcaption" variant="body2" color="text.secondary">
        {stats
          ? `${name}: mean ${stats.mean.toFixed(1)} ± ${stats.sd.toFixed(1)} ${unit} (SD), ${stats.n} patients`
          : `${name}: no patient could be measured`}
      </Typography>
    </figure>
  );
}
