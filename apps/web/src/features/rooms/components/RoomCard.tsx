import { Link as RouterLink } from 'react-router';
import { roomNameMaxLength, roomNameTakenMessage, type Room } from '@insilico/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import ShareOutlinedIcon from '@mui/icons-material/ShareOutlined';
import ViewInArOutlinedIcon from '@mui/icons-material/ViewInArOutlined';
import { RenameField, type RenameOutcome } from '../../../components/RenameField';
import { formatDate } from '../../../lib/formatDate';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { roomScenePath } from '../api';

interface RoomCardProps {
  room: Room;
  /** Names of the other rooms shown (the rename field flags them while typing; the server checks the rest). */
  otherNames: readonly string[];
  canEdit: boolean;
  onRename: (name: string) => Promise<RenameOutcome>;
  onShare: () => void;
  onDelete: () => void;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A saved room: the latest screenshot as its thumbnail, its name (renamed in place), patient, and actions. */
export function RoomCard({ room, otherNames, canEdit, onRename, onShare, onDelete }: RoomCardProps) {
  const open = roomScenePath(room.projectId, room.id);
  return (
    <Card variant="outlined" component="article" aria-label={`Room ${room.name}`} sx={{ height: '100%' }}>
      <Box component={RouterLink} to={open} aria-label={`Open room ${room.name}`} sx={{ display: 'block' }}>
        {room.latestScreenshot ? (
          <CardMedia
            component="img"
            image={room.latestScreenshot.thumbnailUrl}
            alt={`Latest screenshot of ${room.name}`}
            sx={{ height: 140, objectFit: 'cover', bgcolor: '#11161c' }}
          />
        ) : (
          <Stack
            sx={{ height: 140, bgcolor: '#11161c', color: 'grey.500', alignItems: 'center', justifyContent: 'center' }}
          >
            <ViewInArOutlinedIcon fontSize="large" aria-hidden="true" />
            <Typography variant="caption">No screenshot yet</Typography>
          </Stack>
        )}
      </Box>
      <CardContent sx={{ pb: 1 }}>
        <RenameField
          value={room.name}
          noun="room"
          editable={canEdit}
          otherNames={otherNames}
          duplicateMessage={roomNameTakenMessage}
          maxLength={roomNameMaxLength}
          onRename={onRename}
          variant="subtitle1"
        />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
          {room.subject.kind === 'patient' ? (
            <>
              <Typography variant="body2">{room.subject.patientId}</Typography>
              <Typography variant="body2" color="text.secondary">
                {room.subject.cohortName}
              </Typography>
              <PatientOriginLabel origin="synthetic" />
            </>
          ) : room.subject.kind === 'imaging' ? (
            <>
              <Typography variant="body2">{room.subject.patientId}</Typography>
              <Typography variant="body2" color="text.secondary">
                {room.subject.datasetName}
              </Typography>
              <PatientOriginLabel origin="imaging" />
            </>
          ) : (
            <Typography variant="body2">Statistical shape model</Typography>
          )}
        </Stack>
        <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap', gap: 0.5 }}>
          <Chip size="small" label={plural(room.placementCount, 'device placed', 'devices placed')} />
          <Chip size="small" label={plural(room.screenshotCount, 'screenshot', 'screenshots')} />
          <Chip size="small" label={room.hasSimulation ? 'Has a simulation' : 'No simulation'} />
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          Created {formatDate(room.createdAt)}
          {room.createdBy ? ` by ${room.createdBy.name}` : ''}
          {room.sharedWith.length > 0 ? ` · shared with ${room.sharedWith.map((p) => p.name).join(', ')}` : ''}
        </Typography>
      </CardContent>
      <CardActions sx={{ pt: 0 }}>
        <Button size="small" component={RouterLink} to={open}>
          Open
        </Button>
        <Box sx={{ flex: 1 }} />
        {canEdit && (
          <>
            <Tooltip title="Share">
              <IconButton size="small" aria-label={`Share room ${room.name}`} onClick={onShare}>
                <ShareOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Delete">
              <IconButton size="small" aria-label={`Delete room ${room.name}`} onClick={onDelete}>
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </>
        )}
      </CardActions>
    </Card>
  );
}
