import { useState } from 'react';
import { useLeaveConfirmation } from '../../components/useLeaveConfirmation';
import { ApiError } from '../../lib/apiError';
import type { FieldErrors } from '../onboarding';
import { isChanged } from './forms';

/**
 * The state of a settings form: what is saved and what is typed, field errors, the leave
 * confirmation while they differ, and saving with the server's refusal or a saved notice.
 */
export function useSettingsForm<F extends object>(initial: () => F) {
  const [saved, setSaved] = useState(initial);
  const [form, setForm] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors<Extract<keyof F, string>>>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const dirty = isChanged(form, saved);
  const leave = useLeaveConfirmation(dirty);

  /** Changes fields and forgets their errors. */
  const set = (patch: Partial<F>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as Extract<keyof F, string>];
      return next;
    });
  };

  /** Sends the form; `send` answers the form as saved (from the server's answer). */
  async function save(send: () => Promise<F>, done: string, failed: string): Promise<void> {
    setSaving(true);
    setSaveError(null);
    try {
      const next = await send();
      setSaved(next);
      setForm(next);
      setNotice(done);
    } catch (caught) {
      setSaveError(caught instanceof ApiError ? caught.message : failed);
    } finally {
      setSaving(false);
    }
  }

  return { form, set, errors, setErrors, dirty, leave, saving, saveError, notice, setNotice, save };
}

export type SettingsForm<F extends object> = ReturnType<typeof useSettingsForm<F>>;
