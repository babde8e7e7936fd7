import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  contextOfUseMaxLength,
  modelRiskOf,
  questionMaxLength,
  questionRequiredMessage,
  vv40GradeLabels,
  vv40Grades,
  type Vv40Grade,
} from '@insilico/contracts';
import { createQuestion, useQuestions } from '../api';
import { useWizard } from '../wizardContext';
import { RiskLevelChip } from './RiskLevelChip';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

interface QuestionForm {
  question: string;
  contextOfUse: string;
  modelInfluence: Vv40Grade | '';
  decisionConsequence: Vv40Grade | '';
}

const emptyForm: QuestionForm = { question: '', contextOfUse: '', modelInfluence: '', decisionConsequence: '' };

const gradeHelp = {
  modelInfluence: 'How much the simulation contributes to the decision, compared with other evidence.',
  decisionConsequence: 'How severe an adverse outcome would be if the decision were wrong.',
} as const;

/** `/projects/create/new-question-of-interest`: a new question with the optional ASME V&V 40 fields. */
export function NewQuestionStep() {
  const { deviceId, go, saving, setPageDirty } = useWizard();
  const questions = useQuestions(deviceId);
  const [form, setForm] = useState(emptyForm);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const typed = JSON.stringify(form) !== JSON.stringify(emptyForm);
  useEffect(() => {
    setPageDirty(typed);
    return () => setPageDirty(false);
  }, [typed, setPageDirty]);

  const questionProblem =
    form.question.trim() === ''
      ? touched
        ? questionRequiredMessage
        : null
      : form.question.trim().length > questionMaxLength
        ? `The question can have at most ${questionMaxLength} characters.`
        : null;
  const level = modelRiskOf({
    modelInfluence: form.modelInfluence || null,
    decisionConsequence: form.decisionConsequence || null,
  });

  async function submit() {
    setTouched(true);
    if (form.question.trim() === '' || questionProblem) return;
    setBusy(true);
    setError(null);
    try {
      const question = await createQuestion(deviceId, {
        question: form.question,
        contextOfUse: form.contextOfUse,
        modelInfluence: form.modelInfluence || null,
        decisionConsequence: form.decisionConsequence || null,
      });
      void questions.mutate();
      setPageDirty(false);
      await go('question-of-interest', { questionId: question.id });
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The question could not be saved.');
    } finally {
      setBusy(false);
    }
  }

  const gradeField = (field: 'modelInfluence' | 'decisionConsequence', label: string) => (
    <TextField
      select
      label={label}
      value={form[field]}
      onChange={(event) => setForm({ ...form, [field]: event.target.value as Vv40Grade | '' })}
      helperText={gradeHelp[field]}
      sx={{ flex: 1 }}
    >
      <MenuItem value="">
        <em>Not set</em>
      </MenuItem>
      {vv40Grades.map((grade) => (
        <MenuItem key={grade} value={grade}>
          {vv40GradeLabels[grade]}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <StepHeading title="New question of interest">
        The question, and optionally how the result will be used: the context of use, the model influence and the
        decision consequence (ASME V&V 40). The question can be reused by other projects of this workspace.
      </StepHeading>
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        <TextField
          label="Question of interest"
          value={form.question}
          onChange={(event) => setForm({ ...form, question: event.target.value })}
          error={questionProblem !== null}
          helperText={questionProblem ?? `${form.question.trim().length}/${questionMaxLength} characters`}
          required
          multiline
          minRows={2}
          autoFocus
        />
        <TextField
          label="Context of use (optional)"
          value={form.contextOfUse}
          onChange={(event) => setForm({ ...form, contextOfUse: event.target.value.slice(0, contextOfUseMaxLength) })}
          helperText="What the simulation result will be used for, and its role in the decision."
          multiline
          minRows={2}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {gradeField('modelInfluence', 'Model influence (optional)')}
          {gradeField('decisionConsequence', 'Decision consequence (optional)')}
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} aria-live="polite">
          <Typography variant="body2">Model risk level:</Typography>
          <RiskLevelChip level={level} />
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
      <StepActions
        onBack={() => void go('question-of-interest')}
        backLabel="Cancel"
        onNext={() => void submit()}
        nextLabel="Save question"
        busy={busy || saving}
      />
    </form>
  );
}
