import { useMemo, useState, type ChangeEvent } from 'react';
import type { CohortParameterTable, Representativeness, RepresentativenessRequest } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { ApiError } from '../../../lib/apiError';
import { compareWithReference } from '../api';
import { describedExportName, downloadCsv, exportDate } from '../exports';
import { formatPercent, formatPValue, formatValue } from '../format';
import { overlayOf, representativenessReport } from '../representativeness';
import { ChartCard } from './charts/ChartCard';
import { gridWithLabels, type ChartOption } from './charts/chartOption';
import { ExportTable } from './ExportTable';
import { AnalysisReportButton } from './AnalysisReportButton';

interface RepresentativenessBlockProps {
  deviceId: string;
  projectId: string;
  analysisId: string;
  cohortName: string;
  /** Virtual patients (anatomy) or the user's own imaging data (what was measured on the delivered surfaces). */
  cohortSource: 'virtual' | 'imaging';
  table: CohortParameterTable;
  /** The analysed parameters: the anatomical ones among them are compared. */
  parameters: readonly string[];
}

type Compared = Representativeness['parameters'][number];
interface Published {
  mean: string;
  sd: string;
  n: string;
}
const fieldLabels: Record<keyof Published, string> = { mean: 'mean', sd: 'SD', n: 'n' };

/**
 * Is the virtual cohort representative of the device's intended-use population (issue 23)? The user gives a
 * reference — a de-identified CSV of real patients, or published means and SDs with their source — and the server
 * compares: per parameter the two distributions overlaid, a two-sample Kolmogorov–Smirnov test and the reference's
 * range covered; over all parameters the energy distance (permutation p-value) and the Mahalanobis χ² QQ plot; a
 * one-page CSV report with the cohort's population model version, and the analysis report (PDF) with the comparison.
 */
export function RepresentativenessBlock({
  deviceId,
  projectId,
  analysisId,
  cohortName,
  cohortSource,
  table,
  parameters,
}: RepresentativenessBlockProps) {
  const kindOfParameters =
    cohortSource === 'imaging' ? 'parameters measured on the delivered surfaces' : 'anatomical parameters';
  const anatomical = table.parameters.filter(
    (p) => (p.group === 'body' || p.group === 'cardiac') && parameters.includes(p.key),
  );
  const [kind, setKind] = useState<'patients' | 'summary'>('patients');
  const [source, setSource] = useState('');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [published, setPublished] = useState<Record<string, Published>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Representativeness | null>(null);
  // The request that gave the result: the PDF report compares with the same reference.
  const [compared, setCompared] = useState<RepresentativenessRequest | null>(null);

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setFile({ name: chosen.name, text: await chosen.text() });
  };

  const summaryRows = anatomical.filter((p) => (published[p.key]?.mean ?? '') !== '');
  const ready =
    source.trim() !== '' && anatomical.length > 0 && (kind === 'patients' ? file !== null : summaryRows.length > 0);

  const compare = async () => {
    setBusy(true);
    setError(null);
    const body: RepresentativenessRequest =
      kind === 'patients'
        ? { source, reference: { kind, csv: file?.text ?? '' }, parameters: anatomical.map((p) => p.key) }
        : {
            source,
            reference: {
              kind,
              parameters: summaryRows.map((p) => {
                const row = published[p.key]!;
                return { key: p.key, mean: Number(row.mean), sd: Number(row.sd), n: row.n ? Number(row.n) : null };
              }),
            },
            parameters: summaryRows.map((p) => p.key),
          };
    try {
      setResult(await compareWithReference(deviceId, projectId, analysisId, body));
      setCompared(body);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The comparison failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (anatomical.length === 0)
    return (
      <Typography color="text.secondary">
        Choose {kindOfParameters} in the parameter filter to compare the cohort with a reference population.
      </Typography>
    );

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        Compare the cohort with the device’s intended-use population: upload a de-identified CSV of real patients (one
        column per parameter, named by its label or key) or enter published means and SDs. The reference is checked on
        the server and not stored.
        {cohortSource === 'imaging' &&
          ' Your imaging patients are compared on the parameters measured on their delivered surfaces (volumes; EDV, ESV, stroke volume and EF where both LV phases were delivered).'}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={kind}
          onChange={(_, next: 'patients' | 'summary' | null) => next && setKind(next)}
          aria-label="Reference"
        >
          <ToggleButton value="patients">Patients (CSV)</ToggleButton>
          <ToggleButton value="summary">Published statistics</ToggleButton>
        </ToggleButtonGroup>
        <TextField
          label="Source of the reference"
          placeholder="Publication, registry or study, with its population"
          value={source}
          onChange={(e) => setSource(e.target.value)}
          size="small"
          sx={{ flex: 1 }}
          required
        />
      </Stack>
      {kind === 'patients' ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
            Choose reference CSV
            <input type="file" accept=".csv,text/csv" hidden onChange={(e) => void chooseFile(e)} />
          </Button>
          <Typography>{file ? file.name : 'No file chosen'}</Typography>
        </Stack>
      ) : (
        <Stack spacing={1}>
          {anatomical.map((p) => {
            const row = published[p.key] ?? { mean: '', sd: '', n: '' };
            const set = (change: Partial<Published>) => setPublished({ ...published, [p.key]: { ...row, ...change } });
            return (
              <Stack key={p.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography sx={{ minWidth: 260 }}>
                  {p.label} ({p.unit})
                </Typography>
                {(['mean', 'sd', 'n'] as const).map((field) => (
                  <TextField
                    key={field}
                    size="small"
                    label={fieldLabels[field]}
                    type="number"
                    value={row[field]}
                    onChange={(e) => set({ [field]: e.target.value })}
                    slotProps={{ htmlInput: { 'aria-label': `${p.label} ${fieldLabels[field]}` } }}
                  />
                ))}
              </Stack>
            );
          })}
        </Stack>
      )}
      <Stack direction="row" spacing={2}>
        <Button variant="contained" disabled={!ready || busy} onClick={() => void compare()}>
          {busy ? 'Comparing…' : 'Compare with the reference'}
        </Button>
        {result && (
          <Button
            startIcon={<DownloadIcon />}
            onClick={() =>
              downloadCsv(
                describedExportName([cohortName, 'representativeness', exportDate()]),
                representativenessReport(result),
              )
            }
          >
            Download report (CSV)
          </Button>
        )}
        {result && compared && (
          <AnalysisReportButton
            deviceId={deviceId}
            projectId={projectId}
            analysisId={analysisId}
            representativeness={compared}
            label="Download analysis report with this comparison (PDF)"
          />
        )}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {result && <RepresentativenessResults result={result} table={table} cohortSource={cohortSource} />}
    </Stack>
  );
}

function RepresentativenessResults({
  result,
  table,
  cohortSource,
}: {
  result: Representativeness;
  table: CohortParameterTable;
  cohortSource: 'virtual' | 'imaging';
}) {
  const [chosen, setChosen] = useState(result.parameters[0]?.key ?? '');
  const compared = result.parameters.find((p) => p.key === chosen) ?? result.parameters[0];
  const cohortValues = useMemo(() => {
    const j = table.parameters.findIndex((p) => p.key === compared?.key);
    return j < 0 ? [] : (table.values[j] ?? []);
  }, [table, compared]);

  const overlay: ChartOption = useMemo(() => {
    if (!compared) return {};
    const bins = overlayOf(cohortValues, compared);
    const x = bins.centres.map((c) => formatValue(c, 1));
    return {
      grid: gridWithLabels({ left: 8, right: 16, top: 40, bottom: 8 }),
      legend: { top: 0 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: x, name: compared.unit },
      yAxis: { type: 'value', name: 'Share (%)' },
      series: [
        { type: 'bar', name: `Cohort (${result.cohort.name})`, data: bins.cohort.map((v) => v * 100) },
        {
          type: compared.referenceValues ? 'bar' : 'line',
          name: compared.referenceValues ? 'Reference' : 'Reference (normal, published mean and SD)',
          data: bins.reference.map((v) => v * 100),
        },
      ],
    };
  }, [compared, cohortValues, result.cohort.name]);

  const qq: ChartOption = useMemo(() => {
    const m = result.mahalanobis;
    if (!m) return {};
    const top = Math.max(...m.distances, ...m.expected, 1);
    return {
      grid: gridWithLabels({ left: 8, right: 16, top: 24, bottom: 8 }),
      tooltip: { trigger: 'item' },
      xAxis: { type: 'value', name: `χ²(${m.degreesOfFreedom}) quantile`, nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'value', name: 'Squared Mahalanobis distance' },
      series: [
        { type: 'scatter', name: 'Cohort', symbolSize: 6, data: m.expected.map((q, i) => [q, m.distances[i]]) },
        {
          type: 'line',
          name: 'Representative',
          showSymbol: false,
          data: [
            [0, 0],
            [top, top],
          ],
        },
      ],
    };
  }, [result.mahalanobis]);

  return (
    <Stack spacing={2} aria-label="Representativeness results">
      <Alert severity="info" role="status">
        {`${result.cohort.name} (${cohortSource === 'imaging' ? 'your own imaging data' : `population model ${result.cohort.modelVersion}`}, ${result.cohort.patients} patients) against ${
          result.referenceKind === 'patients'
            ? `${result.referencePatients} reference patients`
            : 'published statistics'
        } — ${result.source}.`}
        {result.energy &&
          ` Energy distance ${formatValue(result.energy.energy, 3)} (reference SDs), permutation p = ${formatPValue(result.energy.pValue)} (${result.energy.permutations} permutations).`}
        {result.mahalanobis &&
          ` ${formatPercent(result.mahalanobis.beyond95)} of the cohort lies beyond the reference’s χ² 95 % quantile (about 5 % if representative).`}
        {result.ignoredColumns.length > 0 && ` Columns not compared: ${result.ignoredColumns.join(', ')}.`}
      </Alert>
      <ExportTable<Compared>
        title="Cohort against the reference, per parameter"
        fileName="representativeness"
        columns={[
          { header: 'Parameter', value: (p) => `${p.label} (${p.unit})` },
          { header: 'Cohort mean', value: (p) => p.cohort.mean, decimals: 2, numeric: true },
          { header: 'Cohort SD', value: (p) => p.cohort.sd, decimals: 2, numeric: true },
          { header: 'Reference mean', value: (p) => p.reference.mean, decimals: 2, numeric: true },
          { header: 'Reference SD', value: (p) => p.reference.sd, decimals: 2, numeric: true },
          { header: 'Difference (reference SD)', value: (p) => p.standardisedDifference, decimals: 2, numeric: true },
          { header: 'SD ratio', value: (p) => p.sdRatio, decimals: 2, numeric: true },
          { header: 'KS D', value: (p) => p.ks?.statistic ?? null, decimals: 3, numeric: true },
          {
            header: 'KS p-value',
            value: (p) => p.ks?.pValue ?? null,
            render: (p) => (p.ks ? formatPValue(p.ks.pValue) : '—'),
            numeric: true,
          },
          {
            header: 'Reference range covered (%)',
            value: (p) => (p.range ? p.range.rangeFraction * 100 : null),
            decimals: 1,
            numeric: true,
          },
        ]}
        rows={result.parameters}
        rowKey={(p) => p.key}
        emptyText="No parameter compared."
      />
      <ChartCard
        title="Distributions"
        fileName="representativeness-distributions"
        option={overlay}
        empty={!compared}
        controls={
          <TextField
            select
            size="small"
            label="Parameter"
            value={compared?.key ?? ''}
            onChange={(e) => setChosen(e.target.value)}
            sx={{ minWidth: 280 }}
          >
            {result.parameters.map((p) => (
              <MenuItem key={p.key} value={p.key}>
                {p.label}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      <ChartCard
        title="Mahalanobis χ² QQ plot"
        fileName="representativeness-qq"
        option={qq}
        empty={!result.mahalanobis}
      />
    </Stack>
  );
}
