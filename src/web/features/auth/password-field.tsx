import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A required password input, labelled without an asterisk, whose show/hide toggle has an accessible name. */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput required withAsterisk={false} visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }} {...props} />;
}
