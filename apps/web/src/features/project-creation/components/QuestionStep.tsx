import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Radio from '@mui/material/Radio';
import { vv40GradeLabels } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { useQuestions } from '../api';
import { useWizard } from '../wizardContext';
import { RiskLevelChip } from './RiskLevelChip';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** `/projects/create/question-of-interest`: the question the project answers (reusable across projects). */
export function QuestionStep() {
  const { deviceId, draft, change, go, saving } = useWizard();
  const questions = useQuestions(deviceId);

  let body;
  if (questions.error && !questions.data)
    body = (
      <LoadFailure what="The questions of interest" error={questions.error} retry={() => void questions.mutate()} />
    );
  else if (!questions.data) body = <Loading what="the questions of interest" />;
  else if (questions.data.items.length === 0)
    body = <Alert severity="info">This device workspace has no question of interest yet. Write the first one.</Alert>;
  else
    body = (
      <List aria-label="Questions of interest" sx={{ maxWidth: 880 }}>
        {questions.data.items.map((question) => {
          const selected = question.id === draft.questionId;
          const grades =
            question.modelInfluence || question.decisionConsequence
              ? `Model influence: ${question.modelInfluence ? vv40GradeLabels[question.modelInfluence] : 'not set'} · Decision consequence: ${question.decisionConsequence ? vv40GradeLabels[question.decisionConsequence] : 'not set'}`
              : null;
          return (
            <ListItemButton
              key={question.id}
              selected={selected}
              onClick={() => change({ questionId: question.id })}
              sx={{ borderRadius: 2, mb: 1, border: 1, borderColor: selected ? 'primary.main' : 'divider', gap: 2 }}
            >
              <ListItemIcon>
                <Radio
                  edge="start"
                  checked={selected}
                  tabIndex={-1}
                  slotProps={{ input: { 'aria-label': question.question } }}
                />
              </ListItemIcon>
              <ListItemText
                primary={question.question}
                secondary={
                  [question.contextOfUse && `Context of use: ${question.contextOfUse}`, grades]
                    .filter(Boolean)
                    .join(' · ') || undefined
                }
              />
              <RiskLevelChip level={question.modelRiskLevel} />
            </ListItemButton>
          );
        })}
      </List>
    );

  return (
    <div>
      <StepHeading title="Question of interest">
        The question the simulations of this project answer. With the context of use, the model influence and the
        decision consequence it gives the model risk level of ASME V&V 40.
      </StepHeading>
      <Button variant="outlined" sx={{ mb: 2 }} onClick={() => void go('new-question-of-interest')} disabled={saving}>
        New question of interest
      </Button>
      {body}
      <StepActions
        onBack={() => void go('patient-cohort-list')}
        onNext={() => void go('device-version')}
        nextDisabled={draft.questionId === null}
        busy={saving}
      />
    </div>
  );
}
