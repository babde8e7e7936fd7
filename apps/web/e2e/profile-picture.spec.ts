import { oversizedJpeg, pngFile, textAsPng } from './pictures';
import { signUp } from './workspace-helpers';
import { expect, test } from './csp';

// Journey (c) of issue 3 against the real server (E2E_BASE_URL): on /my-account a too-large and a
// wrong-type profile picture show the two messages of spec §5 (checked in the browser, and refused
// by the server too when the browser's check is bypassed), and a valid picture is saved and shows
// in the avatar of the top bar.

const tooBig = 'File size is too big, max. 5MB';
const wrongType = 'Upload one of these image types: jpg, jpeg, png';

test('profile picture: the two refusals, then a picture saved and shown as the avatar', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, '/my-account', 'Paula Picture');
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  const avatar = page.getByRole('button', { name: 'Account and settings' });
  await expect(avatar.getByText('PP')).toBeVisible();
  const chooser = page.getByLabel('Choose a file for the profile picture');

  // Too large, then the wrong type: the spec's messages, and nothing was sent.
  let uploads = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/api/me/picture')) uploads += 1;
  });
  await chooser.setInputFiles(oversizedJpeg());
  await expect(page.getByRole('alert').filter({ hasText: tooBig })).toBeVisible();
  await chooser.setInputFiles(textAsPng());
  await expect(page.getByRole('alert').filter({ hasText: wrongType })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: tooBig })).toHaveCount(0);
  expect(uploads).toBe(0);

  // The server refuses the same files on its own (as a client that skips the check would send them).
  const origin = new URL(page.url()).origin;
  for (const [file, status, message] of [
    [oversizedJpeg(), 413, tooBig],
    [textAsPng(), 415, wrongType],
  ] as const) {
    const answer = await page.request.put('/api/me/picture', {
      data: file.buffer,
      headers: { 'Content-Type': file.mimeType, Origin: origin },
    });
    expect(answer.status()).toBe(status);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(message);
  }
  expect((await (await page.request.get('/api/auth/me')).json()).pictureUrl).toBeNull();

  // A valid picture (named .jpg, a PNG inside: the bytes decide) is saved and becomes the avatar.
  await chooser.setInputFiles(pngFile('portrait.jpg'));
  await expect(page.getByText('Your profile picture is saved.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const avatarImage = avatar.locator('img');
  await expect(avatarImage).toHaveAttribute('src', /^\/api\/users\/[\w-]+\/picture\?size=thumb&v=[\w-]+$/);
  // Loaded from the server: the stored thumbnail is 256 × 256.
  await expect
    .poll(() => avatarImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBe(256);
  await expect(page.getByRole('img', { name: 'Profile picture' })).toBeVisible();

  // It is kept: after a reload the avatar shows it again.
  await page.reload();
  await expect(avatar.locator('img')).toHaveAttribute('src', /\/picture\?size=thumb&v=/);

  // Removing asks first, then the initials are back.
  await page.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the profile picture?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(avatar.getByText('PP')).toBeVisible();
  await expect(avatar.locator('img')).toHaveCount(0);
});
