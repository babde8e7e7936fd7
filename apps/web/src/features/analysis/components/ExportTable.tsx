import { useContext, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { describedExportName, downloadCsv, exportDate } from '../exports';
import { formatValue, roundTo } from '../format';
import { ExportNameContext } from './exportName';

export interface ExportColumn<T> {
  /** The heading, with the unit where the column has one: `Distance (SD)`, `Coverage (%)`. */
  header: string;
  /** The cell's value. */
  value: (row: T) => string | number | null;
  /**
   * The decimals shown: the page shows the value with them (unless `render` says otherwise) and the CSV holds it
   * rounded the same way, so a spreadsheet and the page agree (issue 14).
   */
  decimals?: number | ((row: T) => number);
  /** The cell on screen (default: the value, with `decimals`). */
  render?: (row: T) => ReactNode;
  numeric?: boolean;
}

function decimalsOf<T>(column: ExportColumn<T>, row: T): number | undefined {
  return typeof column.decimals === 'function' ? column.decimals(row) : column.decimals;
}

/** A cell as the CSV holds it: numbers rounded to the decimals shown. */
export function csvValue<T>(column: ExportColumn<T>, row: T): string | number | null {
  const value = column.value(row);
  const decimals = decimalsOf(column, row);
  return typeof value === 'number' && decimals !== undefined ? roundTo(value, decimals) : value;
}

function cellOf<T>(column: ExportColumn<T>, row: T): ReactNode {
  if (column.render) return column.render(row);
  const value = column.value(row);
  const decimals = decimalsOf(column, row);
  return typeof value === 'number' && decimals !== undefined ? formatValue(value, decimals) : value;
}

interface ExportTableProps<T> {
  title: string;
  /**
   * What the table holds, for the CSV's file name (`summary`); the analysis's cohort and name go before it and the
   * date after it (`ExportNameContext`).
   */
  fileName: string;
  columns: readonly ExportColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown instead of an empty table. */
  emptyText: string;
  /** A last column of buttons (not exported). */
  actions?: (row: T) => ReactNode;
  maxHeight?: number;
}

/** Read by screen readers, not shown. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;

/** A small table with a CSV export of exactly its rows and columns (issue 6: "CSV export of every table"). */
export function ExportTable<T>({
  title,
  fileName,
  columns,
  rows,
  rowKey,
  emptyText,
  actions,
  maxHeight = 360,
}: ExportTableProps<T>) {
  const prefix = useContext(ExportNameContext);
  const exportCsv = () =>
    downloadCsv(describedExportName([prefix, fileName, exportDate()]), {
      columns: columns.map((column) => column.header),
      rows: rows.map((row) => columns.map((column) => csvValue(column, row))),
    });
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        <Button
          size="small"
          startIcon={<DownloadIcon aria-hidden="true" />}
          onClick={exportCsv}
          disabled={rows.length === 0}
          aria-label={`Export ${title} as CSV`}
        >
          CSV
        </Button>
      </Stack>
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          {emptyText}
        </Typography>
      ) : (
        <TableContainer sx={{ maxHeight }}>
          <Table size="small" stickyHeader aria-label={title}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.header} align={column.numeric ? 'right' : 'left'}>
                    {column.header}
                  </TableCell>
                ))}
                {actions && (
                  <TableCell>
                    <Box component="span" sx={visuallyHidden}>
                      Actions
                    </Box>
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={rowKey(row)} hover>
                  {columns.map((column) => (
                    <TableCell key={column.header} align={column.numeric ? 'right' : 'left'}>
                      {cellOf(column, row)}
                    </TableCell>
                  ))}
                  {actions && <TableCell sx={{ whiteSpace: 'nowrap' }}>{actions(row)}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
