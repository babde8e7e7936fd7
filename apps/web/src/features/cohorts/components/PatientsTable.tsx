import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import { patientPageSizes, type CohortPatientsQuery, type PatientSortKey } from '@insilico/contracts';
import { cohortUrls, useCohortPatients } from '../api';
import { labelOf } from '../labels';
import { patientPath } from '../paths';
import { Loading } from './CohortWorkspace';

const columns: { key: PatientSortKey; label: string; numeric?: boolean }[] = [
  { key: 'id', label: 'Patient' },
  { key: 'sex', label: 'Sex' },
  { key: 'age', label: 'Age (years)', numeric: true },
  { key: 'origin', label: 'Origin' },
  { key: 'height', label: 'Height (cm)', numeric: true },
  { key: 'weight', label: 'Weight (kg)', numeric: true },
  { key: 'bmi', label: 'BMI (kg/m²)', numeric: true },
  { key: 'bsa', label: 'BSA (m²)', numeric: true },
  { key: 'pathologies', label: 'Pathologies' },
];

/** Waits until typing pauses before searching. */
function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** A ready cohort's patients: search, sort by any column, paging, and the CSV of every parameter. */
export function PatientsTable({ deviceId, cohortId }: { deviceId: string; cohortId: string }) {
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState<Omit<CohortPatientsQuery, 'search'>>({
    sort: 'id',
    order: 'asc',
    page: 1,
    pageSize: 25,
  });
  const debouncedSearch = useDebounced(search, 300);
  const query: CohortPatientsQuery = { ...paging, search: debouncedSearch };
  const patients = useCohortPatients(deviceId, cohortId, query, true);

  const sortBy = (key: PatientSortKey) =>
    setPaging((current) => ({
      ...current,
      sort: key,
      order: current.sort === key && current.order === 'asc' ? 'desc' : 'asc',
      page: 1,
    }));

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between' }}>
        <TextField
          size="small"
          label="Search patients"
          placeholder="Id, sex, origin or pathology"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPaging((current) => ({ ...current, page: 1 }));
          }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: 280 }}
        />
        <Button
          variant="outlined"
          href={cohortUrls.csv(deviceId, cohortId)}
          download
          startIcon={<DownloadIcon aria-hidden="true" />}
        >
          Download CSV
        </Button>
      </Stack>
      {patients.error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void patients.mutate()}>
              Retry
            </Button>
          }
        >
          The patients could not be loaded. {patients.error.message}
        </Alert>
      )}
      {!patients.data && !patients.error && <Loading text="Loading the patients…" />}
      {patients.data && (
        <Paper variant="outlined" sx={{ borderRadius: 2 }}>
          <Box sx={{ height: 4 }}>{patients.isValidating && <LinearProgress aria-hidden="true" />}</Box>
          <TableContainer>
            <Table size="small" aria-label="Patients">
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column.key}
                      align={column.numeric ? 'right' : 'left'}
                      sortDirection={query.sort === column.key ? query.order : false}
                    >
                      <TableSortLabel
                        active={query.sort === column.key}
                        direction={query.sort === column.key ? query.order : 'asc'}
                        onClick={() => sortBy(column.key)}
                      >
                        {column.label}
                      </TableSortLabel>
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {patients.data.items.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={columns.length}>No patient matches “{query.search}”.</TableCell>
                  </TableRow>
                )}
                {patients.data.items.map((row) => (
                  <TableRow key={row.id} hover>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={patientPath(deviceId, cohortId, row.id)}
                        sx={{ fontWeight: 700 }}
                      >
                        {row.id}
                      </Link>
                    </TableCell>
                    <TableCell>{labelOf('sex', row.sex)}</TableCell>
                    <TableCell align="right">{row.age}</TableCell>
                    <TableCell>
                      {labelOf('location', row.originLocation)} · {labelOf('ethnicity', row.originEthnicity)}
                    </TableCell>
                    <TableCell align="right">{row.height_cm.toFixed(1)}</TableCell>
                    <TableCell align="right">{row.weight_kg.toFixed(1)}</TableCell>
                    <TableCell align="right">{row.bmi_kg_m2.toFixed(1)}</TableCell>
                    <TableCell align="right">{row.bsa_m2.toFixed(2)}</TableCell>
                    <TableCell>
                      {row.pathologies.length === 0
                        ? 'None'
                        : row.pathologies.map((key) => labelOf('pathology', key)).join(', ')}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={patients.data.total}
            page={query.page - 1}
            rowsPerPage={query.pageSize}
            rowsPerPageOptions={[...patientPageSizes]}
            onPageChange={(_event, page) => setPaging((current) => ({ ...current, page: page + 1 }))}
            onRowsPerPageChange={(event) =>
              setPaging((current) => ({ ...current, pageSize: Number(event.target.value), page: 1 }))
            }
          />
        </Paper>
      )}
    </Stack>
  );
}
