import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  signatureMeaningLabels,
  signatureMeanings,
  type SignatureMeaning,
  type SignedRecord,
} from '@insilico/contracts';
import { FormDialog } from '../../../components/FormDialog';
import { beginIssuerSigning, signRecord } from '../api';

interface SignDialogProps {
  deviceId: string;
  /** What is signed, and how it reads in the dialog. */
  record: SignedRecord;
  recordTitle: string;
  signerName: string;
  /** The first signature of the session asks for the e-mail address as well (21 CFR Part 11 §11.200(a)(1)). */
  needsEmail: boolean;
  /**
   * `password`: re-entered here. `issuer`: the organisation's identity provider asks for a fresh sign-in, and the
   * browser comes back to this page with the record signed.
   */
  method: 'password' | 'issuer';
  onClose: () => void;
  onSigned: () => void;
}

/**
 * Signs a design history record: the meaning, then the sign-in components re-entered. The server checks them,
 * binds the signature to the record's content hash and records the signing; a refusal changes nothing.
 */
export function SignDialog({
  deviceId,
  record,
  recordTitle,
  signerName,
  needsEmail,
  method,
  onClose,
  onSigned,
}: SignDialogProps) {
  const id = useId();
  const [meaning, setMeaning] = useState<SignatureMeaning>('review');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const send = async () => {
    if (method === 'issuer') {
      const { location } = await beginIssuerSigning(deviceId, {
        record,
        meaning,
        returnTo: `${window.location.pathname}${window.location.search}`,
      });
      // The page goes to the provider: the dialog stays busy until it has gone.
      window.location.assign(location);
      return;
    }
    try {
      await signRecord(deviceId, { record, meaning, password, ...(needsEmail ? { email } : {}) });
    } catch (cause) {
      // A refused password is not offered again.
      setPassword('');
      throw cause;
    }
    onSigned();
  };

  return (
    <FormDialog
      title="Sign this record"
      submitLabel={method === 'issuer' ? 'Continue to sign in' : 'Sign'}
      canSubmit
      send={send}
      failure="The signature could not be saved. Try again."
      onClose={onClose}
    >
      <DialogContentText component="div" sx={{ mb: 2 }}>
        You sign “{recordTitle}” as {signerName}. Your electronic signature is the legally binding equivalent of your
        handwritten signature; it is kept with the record’s content and cannot be removed.
      </DialogContentText>
      <Stack spacing={2}>
        <div>
          <FormLabel id={`${id}-meaning`}>Meaning of the signature</FormLabel>
          <RadioGroup
            aria-labelledby={`${id}-meaning`}
            value={meaning}
            onChange={(event) => setMeaning(event.target.value as SignatureMeaning)}
          >
            {signatureMeanings.map((value) => (
              <FormControlLabel key={value} value={value} control={<Radio />} label={signatureMeaningLabels[value]} />
            ))}
          </RadioGroup>
        </div>
        {method === 'issuer' && (
          <Alert severity="info" role="note">
            Your organisation’s sign-in page opens next: sign in there again to confirm that it is you. You come back
            here with the record signed; nothing is signed if you stop there.
          </Alert>
        )}
        {method === 'password' && needsEmail && (
          <TextField
            label="E-mail"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            helperText="The first signature of a session asks for your e-mail address and your password."
            required
          />
        )}
        {method === 'password' && (
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            autoFocus={!needsEmail}
          />
        )}
      </Stack>
    </FormDialog>
  );
}
