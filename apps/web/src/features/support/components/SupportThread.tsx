import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SupportRequest } from '@insilico/contracts';
import { formatDateTime } from '../../../lib/formatDate';
import { pictureAtSize } from '../../../lib/pictureFile';
import { ScreenshotThumbnail } from '../../../components/ScreenshotPreviewModal';

function Entry({ author, at, body, fromSupport }: { author: string; at: string; body: string; fromSupport: boolean }) {
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{
        p: 2,
        borderRadius: 2,
        listStyle: 'none',
        bgcolor: fromSupport ? 'action.hover' : 'background.paper',
        ml: fromSupport ? { sm: 4 } : 0,
      }}
    >
      <Typography variant="caption" color="text.secondary" component="p">
        <Box component="span" sx={{ fontWeight: 700, color: 'text.primary' }}>
          {author}
        </Box>{' '}
        · {formatDateTime(at)}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {body}
      </Typography>
    </Paper>
  );
}

/** A request's conversation: the request (with its screenshot), then answers and follow-ups in order. */
export function SupportThread({ request, authorLabel }: { request: SupportRequest; authorLabel: string }) {
  return (
    <Stack component="ol" spacing={1.5} sx={{ p: 0, m: 0 }} aria-label="Conversation">
      <Entry author={authorLabel} at={request.createdAt} body={request.message} fromSupport={false} />
      {request.screenshotUrl && (
        <Box component="li" sx={{ listStyle: 'none' }}>
          <ScreenshotThumbnail
            thumbnailUrl={pictureAtSize(request.screenshotUrl, 'thumb')}
            fullUrl={pictureAtSize(request.screenshotUrl, 'full')}
          />
        </Box>
      )}
      {request.messages.map((message) => (
        <Entry
          key={message.messageId}
          author={message.authorName}
          at={message.createdAt}
          body={message.body}
          fromSupport={message.fromSupport}
        />
      ))}
    </Stack>
  );
}
