import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { PatientParameter } from '@insilico/contracts';

/** A patient's parameters as a table: label, value at its precision, unit (the patient pages, virtual or imaging). */
export function ParameterTable({ title, parameters }: { title: string; parameters: PatientParameter[] }) {
  return (
    <Paper variant="outlined" sx={{ borderRadius: 2 }}>
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            <TableCell>{title}</TableCell>
            <TableCell align="right">Value</TableCell>
            <TableCell>Unit</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {parameters.map((parameter) => (
            <TableRow key={parameter.key}>
              <TableCell>{parameter.label}</TableCell>
              <TableCell align="right">{parameter.value.toFixed(parameter.decimals)}</TableCell>
              <TableCell>{parameter.unit}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
