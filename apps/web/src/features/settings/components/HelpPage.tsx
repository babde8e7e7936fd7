import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Page } from '../../../components/Page';
import { useAskSupport, useSupportContext, YourRequests } from '../../support';
import { helpTopics } from './helpTopics';

/** `/help`: help topics, how to reach support (the drawer, e-mail), and the user's own requests. */
export function HelpPage() {
  const drawer = useAskSupport();
  const context = useSupportContext();
  const email = context.data?.supportEmail;

  return (
    <Page
      title="Help"
      section="Settings"
      description="Questions about the workspace or a simulation? We are here to help."
    >
      <Stack spacing={5}>
        <Box component="section" aria-labelledby="help-topics">
          <Typography id="help-topics" variant="h2" sx={{ mb: 2 }}>
            Help topics
          </Typography>
          {helpTopics.map((topic) => (
            <Accordion
              key={topic.id}
              disableGutters
              variant="outlined"
              sx={{ '&:not(:first-of-type)': { borderTop: 0 } }}
            >
              <AccordionSummary
                expandIcon={<ExpandMoreIcon />}
                aria-controls={`${topic.id}-content`}
                id={`${topic.id}-header`}
              >
                <Typography sx={{ fontWeight: 700 }}>{topic.title}</Typography>
              </AccordionSummary>
              <AccordionDetails id={`${topic.id}-content`}>
                <Stack spacing={1.5}>
                  {topic.paragraphs.map((paragraph) => (
                    <Typography key={paragraph} variant="body2" color="text.secondary">
                      {paragraph}
                    </Typography>
                  ))}
                </Stack>
              </AccordionDetails>
            </Accordion>
          ))}
        </Box>

        <Paper
          component="section"
          aria-labelledby="contact-support"
          variant="outlined"
          sx={{ p: { xs: 2.5, md: 4 }, borderRadius: 3 }}
        >
          <Typography id="contact-support" variant="h2" sx={{ mb: 1 }}>
            Contact support
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2.5 }}>
            Send us a message from any page with the help button in the top bar, or write to us by e-mail. We answer by
            e-mail and here in the workspace.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Button variant="contained" startIcon={<ChatBubbleOutlineIcon />} onClick={drawer.open}>
              Ask support
            </Button>
            {email && (
              <Typography>
                or e-mail <Link href={`mailto:${email}`}>{email}</Link>
              </Typography>
            )}
          </Stack>
        </Paper>

        <Box component="section" aria-labelledby="your-requests-title" id="your-requests">
          <Typography id="your-requests-title" variant="h2" sx={{ mb: 2 }}>
            Your requests
          </Typography>
          <YourRequests />
        </Box>
      </Stack>
    </Page>
  );
}
