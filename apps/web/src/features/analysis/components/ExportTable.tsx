import type { ReactNode } from 'react';
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
import { downloadCsv } from '../exports';

export interface ExportColumn<T> {
  header: string;
  /** The cell's value in the CSV (full precision). */
  value: (row: T) => string | number | null;
  /** The cell on screen (default: the value). */
  render?: (row: T) => ReactNode;
  numeric?: boolean;
}

interface ExportTableProps<T> {
  title: string;
  /** The CSV's file name without extension. */
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
  const exportCsv = () =>
    downloadCsv(fileName, {
      columns: columns.map((column) => column.header),
      rows: rows.map((row) => columns.map((column) => column.value(row))),
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
                      {column.render ? column.render(row) : column.value(row)}
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
