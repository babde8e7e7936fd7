import { useState } from 'react';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  developmentStages,
  projectTitleMaxLength,
  projectTitleProblem,
  projectTitleTooLongMessage,
  type DevelopmentStage,
} from '@insilico/contracts';
import { labelOf } from '../../../lib/labels';
import { checkProjectTitle } from '../api';
import { useWizard } from '../wizardContext';
import { defaultStage, startFromScratch } from '../wizardState';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** `/projects/create/title`: the title (spec §5: at most 50 characters), the stage, and how to start. */
export function TitleStep() {
  const { deviceId, device, draft, change, go, saving } = useWizard();
  const stages = device.deviceDevPhase;
  const stage = defaultStage(draft, stages);
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);

  const length = [...draft.title.trim()].length;
  const localProblem = projectTitleProblem(draft.title);
  // Too long is said at once (spec: live); empty only once the user tried to go on.
  const shownProblem = serverProblem ?? (localProblem === projectTitleTooLongMessage || touched ? localProblem : null);
  const fromPrevious = !draft.options.isCreatingFromScratch;

  async function next() {
    setTouched(true);
    if (localProblem || !stage) return;
    setChecking(true);
    setCheckError(null);
    try {
      const problem = await checkProjectTitle(deviceId, draft.title);
      setServerProblem(problem);
      if (problem) return;
    } catch (error) {
      setCheckError(error instanceof Error ? error.message : 'The title could not be checked.');
      return;
    } finally {
      setChecking(false);
    }
    await go(fromPrevious ? 'previous-project-list' : 'patient-cohort-list', {
      title: draft.title.trim(),
      developmentStage: stage,
    });
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void next();
      }}
    >
      <StepHeading title="Project title">Give the project a title your team will recognise.</StepHeading>
      <Stack spacing={4} sx={{ maxWidth: 640 }}>
        <TextField
          label="Project title"
          value={draft.title}
          onChange={(event) => {
            setServerProblem(null);
            change({ title: event.target.value.slice(0, 200) });
          }}
          onBlur={() => draft.title !== '' && setTouched(true)}
          error={shownProblem !== null || checkError !== null}
          helperText={shownProblem ?? checkError ?? `${length}/${projectTitleMaxLength} characters`}
          required
          autoFocus
          fullWidth
          slotProps={{
            htmlInput: { 'aria-describedby': 'project-title-help' },
            formHelperText: { id: 'project-title-help' },
          }}
        />
        <FormControl>
          <FormLabel id="stage-label">Development stage</FormLabel>
          <RadioGroup
            aria-labelledby="stage-label"
            value={stage ?? ''}
            onChange={(event) => change({ developmentStage: event.target.value as DevelopmentStage })}
          >
            {developmentStages
              .filter((known) => stages.includes(known.key))
              .map((known) => (
                <FormControlLabel key={known.key} value={known.key} control={<Radio />} label={labelOf(known.key)} />
              ))}
          </RadioGroup>
          {touched && !stage && <FormHelperText error>Choose the development stage of the project.</FormHelperText>}
        </FormControl>
        <FormControl>
          <FormLabel id="start-label">How do you want to start?</FormLabel>
          <RadioGroup
            aria-labelledby="start-label"
            value={fromPrevious ? 'previous' : 'scratch'}
            onChange={(event) =>
              change((current) =>
                event.target.value === 'scratch'
                  ? startFromScratch(current)
                  : { ...current, options: { ...current.options, isCreatingFromScratch: false } },
              )
            }
          >
            <FormControlLabel value="scratch" control={<Radio />} label="From scratch" />
            <FormControlLabel
              value="previous"
              control={<Radio />}
              label="From a previous project (copy its question, cohorts, device versions and team)"
            />
          </RadioGroup>
        </FormControl>
      </Stack>
      <StepActions onNext={() => void next()} busy={saving || checking} />
    </form>
  );
}
