import { escapeHtml } from '../lib/html';
import { page, productName } from '../lib/page-layout';
import { minimumPasswordLength } from './password-policy';

export type FieldErrors = Partial<Record<'email' | 'fullName' | 'password' | 'currentPassword' | 'form', string[]>>;

function field(options: {
  name: string;
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  errors?: string[];
  hint?: string;
  autofocus?: boolean;
}): string {
  const id = `field-${options.name}`;
  const errors = options.errors ?? [];
  const describedBy = [options.hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<label for="${id}">${escapeHtml(options.label)}</label>
<input id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}" required
  value="${escapeHtml(options.value ?? '')}"${errors.length ? ' aria-invalid="true"' : ''}${describedBy ? ` aria-describedby="${describedBy}"` : ''}${options.autofocus ? ' autofocus' : ''}>
${options.hint ? `<div class="hint" id="${id}-hint">${escapeHtml(options.hint)}</div>` : ''}
${errors.length ? `<div class="error" id="${id}-error" role="alert">${errors.map(escapeHtml).join('<br>')}</div>` : ''}`;
}

function formAlert(errors: FieldErrors | undefined): string {
  return errors?.form?.length
    ? `<div class="alert" role="alert">${errors.form.map(escapeHtml).join('<br>')}</div>`
    : '';
}

const passwordHint = `At least ${minimumPasswordLength} characters, with at least 3 of: lower-case letters, upper-case letters, digits, special characters.`;

export function signInPage(options: {
  action: string;
  signUpHref: string;
  email?: string;
  errors?: FieldErrors;
}): string {
  const formError = formAlert(options.errors);
  return page({
    title: 'Sign in',
    body: `<h1>Sign in</h1><p>Use your work e-mail address.</p>${formError}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username', value: options.email, autofocus: !options.email })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: Boolean(options.email) })}
<button type="submit">Sign in</button></form>
<div class="switch">New here? <a href="${escapeHtml(options.signUpHref)}">Create an account</a></div>`,
  });
}

export function signUpPage(options: {
  action: string;
  signInHref: string;
  values?: { email?: string; fullName?: string };
  errors?: FieldErrors;
}): string {
  const errors = options.errors ?? {};
  return page({
    title: 'Create your account',
    body: `<h1>Create your account</h1><p>You will use it to sign in to ${productName}.</p>${formAlert(errors)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username', value: options.values?.email, errors: errors.email, autofocus: true })}
${field({ name: 'fullName', label: 'Full name', type: 'text', autocomplete: 'name', value: options.values?.fullName, errors: errors.fullName })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', errors: errors.password, hint: passwordHint })}
<button type="submit">Create account</button></form>
<div class="switch">Already have an account? <a href="${escapeHtml(options.signInHref)}">Sign in</a></div>`,
  });
}

export function changePasswordPage(options: {
  action: string;
  email?: string;
  errors?: FieldErrors;
  done?: boolean;
}): string {
  const errors = options.errors ?? {};
  const done = options.done ? '<div class="ok" role="status">Your password has been changed.</div>' : '';
  return page({
    title: 'Change password',
    body: `<h1>Change password</h1>${done}${formAlert(errors)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username', value: options.email, errors: errors.email, autofocus: !options.email })}
${field({ name: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', errors: errors.currentPassword })}
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', errors: errors.password, hint: passwordHint })}
<button type="submit">Change password</button></form>
<div class="switch"><a href="/my-account">Back to my account</a></div>`,
  });
}

/** The answer to every accepted sign-up, whether or not the address has an account (no enumeration). */
export function checkEmailPage(options: { email: string; signInHref: string }): string {
  return page({
    title: 'Check your e-mail',
    body: `<h1>Check your e-mail to continue</h1>
<div class="ok" role="status">We have sent a message to ${escapeHtml(options.email)}.</div>
<p>Open the link in it to finish creating your account. If nothing arrives within a few minutes, look in your spam folder.</p>
<div class="switch">Already have an account? <a href="${escapeHtml(options.signInHref)}">Sign in</a></div>`,
  });
}

/** The mailed sign-up link's page: one button, plus the sign-up's password when opened in another browser. */
export function confirmSignUpPage(options: {
  action: string;
  token: string;
  email: string;
  askPassword: boolean;
  errors?: FieldErrors;
}): string {
  const errors = options.errors ?? {};
  const password = options.askPassword
    ? field({
        name: 'password',
        label: 'Password',
        type: 'password',
        autocomplete: 'current-password',
        errors: errors.password,
        hint: 'The password you chose when you created the account.',
        autofocus: true,
      })
    : '';
  return page({
    title: 'Confirm your e-mail address',
    body: `<h1>Confirm your e-mail address</h1><p>Finish creating the account of ${escapeHtml(options.email)}.</p>${formAlert(errors)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
${password}
<button type="submit">Confirm and continue</button></form>`,
  });
}

/** After a confirmation outside the browser's sign-in: the account exists; signing in is one click away. */
export function accountReadyPage(): string {
  return page({
    title: 'Your account is ready',
    body: `<h1>Your account is ready</h1><div class="ok" role="status">Your e-mail address is confirmed.</div>
<p><a href="/">Sign in to ${productName}</a></p>`,
  });
}

/** oidc-provider's logout confirmation, submitted by script so that signing out is one click. */
export function signOutPage(form: string, nonce: string): string {
  return page({
    title: 'Signing out',
    body: `<h1>Signing you out…</h1><p>If nothing happens, press the button.</p>${form.replace(
      '</form>',
      '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>',
    )}`,
    scriptNonce: nonce,
    script: `document.forms[0].submit();`,
  });
}

/** What `GET /api/auth/logout` shows: signing out takes a same-origin POST, so a foreign link cannot do it. */
export function signOutConfirmPage(action: string): string {
  return page({
    title: 'Sign out',
    body: `<h1>Sign out?</h1><p>You will be signed out of ${productName} in this browser.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Sign out</button></form>
<div class="switch"><a href="/">Stay signed in</a></div>`,
  });
}

export function signedOutPage(): string {
  return page({ title: 'Signed out', body: `<h1>You are signed out</h1><p><a href="/">Sign in again</a></p>` });
}

export function errorPage(title: string, message: string): string {
  return page({
    title,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to ${productName}</a></p>`,
  });
}
