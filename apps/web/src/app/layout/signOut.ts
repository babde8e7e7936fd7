import { forgetAnalyticsUser } from '../../lib/analytics';
import { rememberSelectedDevice } from '../../lib/earlyRequests';
import { logoutUrl } from './navigation';

/**
 * Signs out: a full-page form POST (the server signs out on POST only, same-origin checked), which then sends
 * the browser on to end the issuer's session. The hint of the selected workspace is forgotten: the next user
 * of this browser starts without it.
 */
export function signOut(): void {
  rememberSelectedDevice(null);
  forgetAnalyticsUser();
  const form = document.createElement('form');
  form.method = 'post';
  form.action = logoutUrl;
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
