import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { productName } from '../lib/product';

interface PageProps {
  title: string;
  /** The section the page belongs to, shown above the title. */
  section?: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}

/** A page of the shell: sets the document title and shows the page heading. */
export function Page({ title, section, description, actions, children }: PageProps) {
  useEffect(() => {
    document.title = `${title} · ${productName}`;
  }, [title]);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'flex-end' }, mb: 3 }}
      >
        <Box>
          {section && (
            <Typography variant="overline" color="primary" component="p">
              {section}
            </Typography>
          )}
          <Typography variant="h1">{title}</Typography>
          {description && (
            <Typography variant="body1" color="text.secondary" sx={{ mt: 1, maxWidth: 720 }}>
              {description}
            </Typography>
          )}
        </Box>
        {actions && <Box sx={{ flexShrink: 0 }}>{actions}</Box>}
      </Stack>
      {children}
    </Container>
  );
}
