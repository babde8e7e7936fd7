import { Fragment } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RenameField, type RenameOutcome } from '../../../components/RenameField';
import { ScreenshotThumbnail } from '../../../components/ScreenshotPreviewModal';
import { seriesColor } from '../palette';
import type { SelectedParticleItem } from '../types';

/** Spec §5 "Rename": the particle message. */
export const particleNameTaken = 'Particle name already exists';

/** Particles grouped by object name, in the order their objects first appear. */
export function groupByObject(particles: readonly SelectedParticleItem[]): [string, SelectedParticleItem[]][] {
  const groups = new Map<string, SelectedParticleItem[]>();
  for (const particle of particles) {
    const group = groups.get(particle.objectName);
    if (group) group.push(particle);
    else groups.set(particle.objectName, [particle]);
  }
  return [...groups];
}

interface ParticleListProps {
  particles: readonly SelectedParticleItem[];
  /** Without it the names are read-only (a guest on the project). */
  onRename?: ((index: number, name: string) => Promise<RenameOutcome>) | undefined;
}

/**
 * The selected particles grouped by object (spec §2 item 1, §9: 200 px high, two columns), each with its line
 * colour, its preview image and its name, renamed in place (unique: 'Particle name already exists').
 */
export function ParticleList({ particles, onRename }: ParticleListProps) {
  if (particles.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ height: 200, display: 'grid', placeItems: 'center' }}>
        Pick particles in the scene to plot them.
      </Typography>
    );
  }
  return (
    <Box
      component="section"
      aria-label="Selected particles"
      sx={{ height: 200, overflowY: 'auto', columnCount: 2, columnGap: 2, mb: 1 }}
    >
      {groupByObject(particles).map(([objectName, items]) => (
        <Fragment key={objectName}>
          <Typography variant="subtitle2" component="h4" sx={{ breakAfter: 'avoid', mt: 0.5 }}>
            {objectName}
          </Typography>
          {items.map((particle) => (
            <Stack
              key={particle.index}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', breakInside: 'avoid', py: 0.25 }}
              data-testid={`particle-${particle.index}`}
            >
              <Box
                aria-hidden="true"
                sx={{ width: 12, height: 12, borderRadius: '50%', flexShrink: 0, bgcolor: seriesColor(particle.index) }}
              />
              {particle.previewImage && (
                <ScreenshotThumbnail
                  thumbnailUrl={particle.previewImage}
                  fullUrl={particle.previewImage}
                  label={`Preview of ${particle.name}`}
                  size={32}
                />
              )}
              <RenameField
                value={particle.name}
                noun="particle"
                variant="body2"
                duplicateMessage={particleNameTaken}
                otherNames={particles.filter((p) => p.index !== particle.index).map((p) => p.name)}
                editable={onRename !== undefined}
                onRename={(name) => onRename?.(particle.index, name) ?? Promise.resolve('duplicate' as const)}
              />
            </Stack>
          ))}
        </Fragment>
      ))}
    </Box>
  );
}
