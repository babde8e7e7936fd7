// One rule for avatars everywhere: the server sends the same initials with project teams.
export { initialsOf } from '@insilico/contracts';
