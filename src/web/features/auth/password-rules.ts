// Registration and reset apply the same two rules; a password has at least 8 characters.
export const PASSWORD_MIN_LENGTH = 8;

export function checkNewPassword(password: string, confirmation: string): string | null {
  if (password !== confirmation) return 'Passwords do not match';
  if (password.length < PASSWORD_MIN_LENGTH) return 'Password must be at least 8 characters long';
  return null;
}
