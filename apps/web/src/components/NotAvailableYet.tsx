import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';

interface NotAvailableYetProps {
  /** What this page will let the user do, one line each. */
  upcoming: readonly string[];
}

/** The honest state of a page whose feature is not built yet: no sample data, just what will come. */
export function NotAvailableYet({ upcoming }: NotAvailableYetProps) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 4 }, borderStyle: 'dashed', borderRadius: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
        <Box
          sx={{
            width: 56,
            height: 56,
            borderRadius: 2,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(11, 79, 138, 0.08)',
            color: 'primary.main',
            flexShrink: 0,
          }}
        >
          <ConstructionOutlinedIcon aria-hidden="true" />
        </Box>
        <Box sx={{ flex: 1 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Typography variant="h3" component="h2">
              Not available yet
            </Typography>
            <Chip label="In development" size="small" color="primary" variant="outlined" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            This page is part of the workspace but its feature has not been released. When it is, you will be able to:
          </Typography>
          <List dense disablePadding sx={{ mt: 1.5 }}>
            {upcoming.map((line) => (
              <ListItem key={line} disableGutters sx={{ alignItems: 'flex-start' }}>
                <ListItemIcon sx={{ minWidth: 32, mt: 0.5, color: 'secondary.main' }}>
                  <CheckCircleOutlineIcon fontSize="small" aria-hidden="true" />
                </ListItemIcon>
                <ListItemText primary={line} slotProps={{ primary: { variant: 'body2' } }} />
              </ListItem>
            ))}
          </List>
        </Box>
      </Stack>
    </Paper>
  );
}
